// Package hugocollector is written in the style of Hugo's content pages
// collector: a goroutine assembles the pages that the file walker sends it
// on a channel until the walker closes it. The bug is a receive with no
// sender: the walker returns early when a file vanishes under it (the
// file watcher saw it removed), without closing the channel, and the
// build returns the error: the collector waits forever (a leak).
package hugocollector

import (
	"errors"
	"sync/atomic"
)

var errNotExist = errors.New("file does not exist")

// contentFs is the content directory, which a watcher may change.
type contentFs struct {
	removed atomic.Bool
}

// remove removes file 2 (the watcher's event).
func (fs *contentFs) remove() {
	fs.removed.Store(true)
}

func (fs *contentFs) stat(file int) error {
	if file == 2 && fs.removed.Load() {
		return errNotExist
	}
	return nil
}

// pagesCollector collects the pages of the site.
type pagesCollector struct {
	fs    *contentFs
	pages chan int
	done  chan struct{}
	count int32 //fencecheck:range 0..3
}

func (c *pagesCollector) collect() {
	for p := range c.pages { // want `^leak: collect blocks forever in range c\.pages after system build returns$`
		c.count += int32(p)
	}
	close(c.done)
}

// walk sends every file's page to the collector.
func (c *pagesCollector) walk() error {
	for f := 1; f <= 2; f++ {
		if err := c.fs.stat(f); err != nil {
			return err
		}
		c.pages <- f
	}
	close(c.pages)
	return nil
}

// walkFixed closes the channel on every path.
func (c *pagesCollector) walkFixed() error {
	defer close(c.pages)
	for f := 1; f <= 2; f++ {
		if err := c.fs.stat(f); err != nil {
			return err
		}
		c.pages <- f
	}
	return nil
}

// build walks the content while the watcher removes a file.
//
//fencecheck:system
func build() {
	fs := &contentFs{}
	c := &pagesCollector{fs: fs, pages: make(chan int), done: make(chan struct{})}
	go c.collect()
	go fs.remove()
	if err := c.walk(); err != nil {
		return
	}
	<-c.done
	if c.count != 3 {
		panic("lost a page")
	}
}

// buildFixed walks with walkFixed.
//
//fencecheck:system
func buildFixed() {
	fs := &contentFs{}
	c := &pagesCollector{fs: fs, pages: make(chan int), done: make(chan struct{})}
	go c.collect()
	go fs.remove()
	if err := c.walkFixed(); err != nil {
		return
	}
	<-c.done
	if c.count != 3 {
		panic("lost a page")
	}
}
