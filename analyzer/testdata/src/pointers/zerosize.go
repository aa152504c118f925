package pointers

// Pointers to zero-size variables: Go may or may not make two distinct
// ones equal (gc gives every one that escapes runtime.zerobase), so
// comparing them is refused; a pointer compared with itself, or with nil,
// is computed.

type token struct{}

//fencecheck:system
func zeroSizeDistinct() { // want `^inconclusive: system zeroSizeDistinct: a run reaches comparing pointers to zero-size variables`
	a, b := new(token), new(token)
	same := make(chan bool)
	go func() { same <- a == b }()
	if <-same {
		panic("two tokens are one")
	}
}

//fencecheck:system
func zeroSizeItself() {
	a := new(token)
	same := make(chan bool)
	go func() { same <- a == a && a != nil }()
	if !<-same {
		panic("a token is not itself")
	}
}

//fencecheck:system
func zeroSizeKeys() { // want `^inconclusive: system zeroSizeKeys: a run reaches a map key that may be a pointer to a zero-size variable`
	tokens := make(chan *token, 2)
	go func() { tokens <- new(token) }()
	go func() { tokens <- new(token) }()
	a, b := <-tokens, <-tokens
	seen := map[*token]bool{a: true}
	if seen[b] {
		panic("two tokens are one key")
	}
}
