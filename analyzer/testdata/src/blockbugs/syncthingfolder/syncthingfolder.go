// Package syncthingfolder is written in the style of Syncthing's folder
// service: Serve runs the initial scan and then closes
// initialScanFinished, which the model waits for before it reports the
// folder up. The bug is a receive with no sender: when the user pauses the
// folder before Serve starts, Serve returns early without closing the
// channel, and the model waits forever (a deadlock).
package syncthingfolder

import "sync"

// folder is one synchronised folder.
type folder struct {
	mu                  sync.Mutex
	paused              bool
	scanned             int32
	initialScanFinished chan struct{}
}

// Pause stops the folder (from the REST API).
func (f *folder) Pause() {
	f.mu.Lock()
	f.paused = true
	f.mu.Unlock()
}

func (f *folder) isPaused() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.paused
}

func (f *folder) scan() {
	f.mu.Lock()
	f.scanned++
	f.mu.Unlock()
}

// Serve scans the folder and then announces the initial scan finished.
func (f *folder) Serve() {
	if f.isPaused() {
		return
	}
	f.scan()
	close(f.initialScanFinished)
}

// serveFixed closes initialScanFinished on every path.
func (f *folder) serveFixed() {
	defer close(f.initialScanFinished)
	if f.isPaused() {
		return
	}
	f.scan()
}

// startFolder starts the folder while the user pauses it, and waits for
// its initial scan.
//
//fencecheck:system
func startFolder() {
	f := &folder{initialScanFinished: make(chan struct{})}
	go f.Serve()
	go f.Pause()
	<-f.initialScanFinished // want `^deadlock: main blocks forever in <-f\.initialScanFinished \(system startFolder\)$`
}

// startFolderFixed serves with serveFixed.
//
//fencecheck:system
func startFolderFixed() {
	f := &folder{initialScanFinished: make(chan struct{})}
	go f.serveFixed()
	go f.Pause()
	<-f.initialScanFinished
}
