// Package werr makes the errors of package wire: a package that no
// export data the users of package gauge read mentions.
package werr

// New returns an error saying s.
func New(s string) error { return &wireError{s} }

type wireError struct{ s string }

func (e *wireError) Error() string { return "wire: " + e.s }
