// Package bytebufferpool follows github.com/valyala/bytebufferpool: a
// ByteBuffer is a struct around its bytes, appended to by its writers and
// emptied by Reset; a Pool hands them out from a sync.Pool (a new one
// when the pool has none), counts the sizes of the buffers put back with
// atomic adds (to calibrate its default size), and resets a buffer
// before it keeps it. The bytes are a fixed array and a length here, not
// a []byte: fencecheck refuses a slice made after the spawns, as Get's
// make([]byte, 0, defaultSize) and an append that grows a nil slice are.
//
// Expected, by hand: render is correct and race-free: each request takes
// a buffer, writes its byte, copies the result out and puts the buffer
// back, so a buffer is in one goroutine's hands at a time (the Put is
// ordered before the Get that returns the same buffer). The mutant
// putEarly puts the buffer back before it reads the result, as a handler
// that returns buf.B after putting buf back does: the other request can
// get the same buffer and write it while the first still reads it (race
// on the buffer's first byte), and the first request's result can be
// the other's byte (SC).
package bytebufferpool

import (
	"sync"
	"sync/atomic"
)

const defaultSize = 4

// ByteBuffer holds the bytes written to it.
type ByteBuffer struct {
	B [defaultSize]byte
	n int
}

// WriteByte appends c.
func (b *ByteBuffer) WriteByte(c byte) error {
	b.B[b.n] = c // want `^race: go@\d+\(i=\d\) stores \S+\.B\[0\] here while go@\d+\(i=\d\) loads \S+\.B\[0\] at bytebufferpool\.go:\d+:\d+, and nothing orders the two \(system putEarly\)`
	b.n++
	return nil
}

// Len returns the number of bytes written.
func (b *ByteBuffer) Len() int {
	return b.n
}

// Reset empties the buffer, keeping its memory.
func (b *ByteBuffer) Reset() {
	b.n = 0
}

// Pool is a pool of ByteBuffers.
type Pool struct {
	calls [2]uint64
	pool  sync.Pool
}

func index(n int) int {
	if n <= 2 {
		return 0
	}
	return 1
}

// Get returns an empty buffer.
func (p *Pool) Get() *ByteBuffer {
	v := p.pool.Get()
	if v != nil {
		return v.(*ByteBuffer)
	}
	return &ByteBuffer{}
}

// Put returns b to the pool; b must not be used afterwards.
func (p *Pool) Put(b *ByteBuffer) {
	atomic.AddUint64(&p.calls[index(b.Len())], 1)
	b.Reset()
	p.pool.Put(b)
}

//fencecheck:system
func render() {
	var p Pool
	var out [2]byte
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			buf := p.Get()
			buf.WriteByte('a' + byte(i))
			out[i] = buf.B[0]
			p.Put(buf)
		}()
	}
	wg.Wait()
	if out[0] != 'a' || out[1] != 'b' {
		panic("a response holds another's bytes")
	}
}

//fencecheck:system
func putEarly() {
	var p Pool
	var out [2]byte
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			buf := p.Get()
			buf.WriteByte('a' + byte(i))
			p.Put(buf)
			out[i] = buf.B[0]
		}()
	}
	wg.Wait()
	if out[0] != 'a' || out[1] != 'b' {
		panic("a response holds another's bytes") // want `^SC: system putEarly is wrong even under sequential consistency: the panic is reached here`
	}
}
