// Package layers holds the test that keeps the packages of the module on
// the floors that docs/architecture.md draws: a package imports only
// packages of the floors below its own, and of its own floor unless the
// floor keeps its packages apart (the engines, the wrappers, the
// questions). The test reads the picture and the package table of the
// document, checks that they agree with each other and name every package
// of the module, and checks every package's imports against them.
package layers
