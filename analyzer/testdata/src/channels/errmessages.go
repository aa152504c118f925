package channels

import (
	"errors"
	"fmt"
	"strings"
)

// The messages of the errors goroutines make: errors.Join's are the
// messages of the errors it holds, one per line; a wrap whose only verb
// is %w, the format around the wrapped error's. A message read in a loop
// before the call that makes it (the error of the iteration before) is
// the one that call makes (was "", the message of an error not made yet:
// a false SC finding).

var errMsgA = errors.New("a")

//fencecheck:system
func loopErrorMessage() {
	done := make(chan bool)
	go func() {
		var err error
		for range 3 {
			if err != nil && err.Error() != "x" {
				panic("not the message of the iteration before")
			}
			err = errors.New("x")
		}
		done <- true
	}()
	<-done
}

//fencecheck:system
func loopWrapMessage() {
	done := make(chan bool)
	go func() {
		var err error = errMsgA
		for range 2 {
			if m := err.Error(); m != "a" && m != "retry: a" && m != "retry: retry: a" {
				panic("not a message of the retries")
			}
			err = fmt.Errorf("retry: %w", err)
		}
		done <- true
	}()
	<-done
}

//fencecheck:system
func joinedMessages() {
	ch := make(chan error, 2)
	go func() { ch <- errMsgA }()
	go func() { ch <- fmt.Errorf("fetch: %w (100%%)", errMsgA) }()
	first := <-ch
	if m := errors.Join(first, <-ch).Error(); m != "a\nfetch: a (100%)" && m != "fetch: a (100%)\na" {
		panic("not the two messages")
	}
}

//fencecheck:system
func joinedMessagesWrong() {
	ch := make(chan error, 2)
	go func() { ch <- errMsgA }()
	go func() { ch <- errors.New("b") }()
	first := <-ch
	if errors.Join(first, <-ch).Error() != "a\nb" {
		panic("b came first") // want `^SC: system joinedMessagesWrong is wrong even under sequential consistency`
	}
}

// A predicate of package strings on a message known only at run time
// (strings.Contains(err.Error(), "timeout"), as code that cannot use
// errors.Is tells timeouts apart) holds for the messages it holds for.

var errIOTimeout = errors.New("i/o timeout")

//fencecheck:system
func messageContains() {
	ch := make(chan error, 2)
	go func() { ch <- fmt.Errorf("dial: %w", errIOTimeout) }()
	go func() { ch <- errors.New("connection refused") }()
	timeouts := 0
	for range 2 {
		if strings.Contains((<-ch).Error(), "timeout") {
			timeouts++
		}
	}
	if timeouts != 1 {
		panic("not one timeout")
	}
}

//fencecheck:system
func messageContainsWrong() {
	ch := make(chan error, 2)
	go func() { ch <- fmt.Errorf("dial: %w", errIOTimeout) }()
	go func() { ch <- errors.New("connection refused") }()
	if !strings.HasPrefix((<-ch).Error(), "dial") {
		panic("the refusal came first") // want `^SC: system messageContainsWrong is wrong even under sequential consistency`
	}
	<-ch
}

// errors.Unwrap gives what a wrap wraps, and nil for a join (whose Unwrap
// gives a slice) and for errors.New's errors.

//fencecheck:system
func unwrapReceived() {
	ch := make(chan error, 2)
	go func() { ch <- fmt.Errorf("fetch: %w", errIOTimeout) }()
	go func() { ch <- errors.Join(errIOTimeout) }()
	for range 2 {
		if u := errors.Unwrap(<-ch); u != nil && u != errIOTimeout {
			panic("not what the wrap wraps")
		}
	}
}

//fencecheck:system
func unwrapReceivedWrong() {
	ch := make(chan error, 2)
	go func() { ch <- fmt.Errorf("fetch: %w", errIOTimeout) }()
	go func() { ch <- errors.Join(errIOTimeout) }()
	if errors.Unwrap(<-ch) != errIOTimeout {
		panic("the join came first") // want `^SC: system unwrapReceivedWrong is wrong even under sequential consistency`
	}
	<-ch
}
