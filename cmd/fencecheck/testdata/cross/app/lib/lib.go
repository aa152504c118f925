// Package lib wraps the mailbox of the dependency.
package lib

import "example.com/dep/ring"

// Send puts v in b, the right way or not.
func Send(b *ring.Box, v int, early bool) {
	if early {
		b.PutEarly(v)
		return
	}
	b.Put(v)
}
