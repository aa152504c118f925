// Package hugorender is written in the style of Hugo's site renderer,
// which renders pages on a pool of goroutines and waits for them with a
// WaitGroup. The bug is a WaitGroup.Wait with a missing Done: a renderer
// that fails on a page returns early, on a path that skips wg.Done (called
// at the end of the function, not deferred), so Wait never returns.
package hugorender

import (
	"errors"
	"sync"
)

var errTemplate = errors.New("template execution failed")

// Site renders pages.
type Site struct {
	rendered int32
}

func (s *Site) renderPage(p int) error {
	if p == 0 {
		return errTemplate
	}
	return nil
}

// pageRenderer renders the pages it takes, reporting failures on errs.
func (s *Site) pageRenderer(pages <-chan int, errs chan<- bool, wg *sync.WaitGroup) {
	for p := range pages {
		if err := s.renderPage(p); err != nil {
			errs <- true
			return
		}
	}
	wg.Done()
}

// pageRendererFixed defers wg.Done.
func (s *Site) pageRendererFixed(pages <-chan int, errs chan<- bool, wg *sync.WaitGroup) {
	defer wg.Done()
	for p := range pages {
		if err := s.renderPage(p); err != nil {
			errs <- true
			return
		}
	}
}

// renderPages renders a good page and a broken one on two renderers.
//
//fencecheck:system
func renderPages() {
	s := &Site{}
	pages := make(chan int, 2)
	errs := make(chan bool, 2)
	pages <- 1
	pages <- 0
	close(pages)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go s.pageRenderer(pages, errs, &wg)
	}
	wg.Wait() // want `^deadlock: main blocks forever in wg\.Wait\(\) \(system renderPages\)$`
}

// renderPagesFixed renders with pageRendererFixed.
//
//fencecheck:system
func renderPagesFixed() {
	s := &Site{}
	pages := make(chan int, 2)
	errs := make(chan bool, 2)
	pages <- 1
	pages <- 0
	close(pages)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go s.pageRendererFixed(pages, errs, &wg)
	}
	wg.Wait()
}
