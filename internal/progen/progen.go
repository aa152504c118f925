// Package progen generates random programs of package model for the
// differential tests of the engines: Simple for the reachability engines
// and Race for the race question. Each generator draws only from the
// random source it is given, so that a seed names the same programs in
// every package that uses it.
package progen
