package initdeps

import (
	"io"
	"log"
	"os"
	"sync"
)

// Logger is the logging interface of a worker pool, in the style of
// github.com/panjf2000/ants: its default is a *log.Logger on the process's
// standard error, made by the package's initialisation.
type Logger interface {
	Printf(format string, args ...any)
}

var (
	defaultLogger = Logger(log.New(os.Stderr, "[pool]: ", log.LstdFlags|log.Lmsgprefix))
	quietLogger   = log.New(io.Discard, "", 0)
)

type loggedPool struct {
	logger  Logger
	mu      sync.Mutex
	running int
}

func (p *loggedPool) run(id int) {
	p.mu.Lock()
	p.running++
	p.mu.Unlock()
	p.logger.Printf("worker %d started", id)
}

func (p *loggedPool) runUnlocked(id int) {
	p.running++ // want `race: .*`
	p.logger.Printf("worker %d started", id)
}

// loggedWorkers logs through the package's default logger, held in a
// field as an interface value, and counts under a mutex: correct.
//
//fencecheck:system
func loggedWorkers() {
	p := &loggedPool{logger: defaultLogger}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			p.run(i)
			quietLogger.Println("done")
			wg.Done()
		}()
	}
	wg.Wait()
	if p.running != 2 {
		panic("lost start")
	}
}

// loggedWorkersUnlocked is its twin that forgets the mutex.
//
//fencecheck:system
func loggedWorkersUnlocked() {
	p := &loggedPool{logger: Logger(log.New(os.Stdout, "", 0))}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			p.runUnlocked(i)
			wg.Done()
		}()
	}
	wg.Wait()
}

// fieldLogger keeps the *log.Logger its constructor made, as servers
// do (s.logger = log.New(...)): the set-up stores a value the model does
// not compute, and logging through it touches no state of the system.
type fieldLogger struct {
	logger  *log.Logger
	mu      sync.Mutex
	handled int
}

func (s *fieldLogger) handle() {
	s.mu.Lock()
	s.handled++
	s.logger.Printf("handled %d", s.handled)
	s.mu.Unlock()
}

//fencecheck:system
func loggerMadeInSetup() {
	s := &fieldLogger{logger: log.New(os.Stderr, "srv: ", log.LstdFlags)}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { s.handle(); wg.Done() }()
	go func() { s.handle(); wg.Done() }()
	wg.Wait()
	if s.handled != 2 {
		panic("a request was lost")
	}
}

//fencecheck:system
func loggerMadeInSetupChecked() { // want `^inconclusive: system loggerMadeInSetupChecked: a run reaches comparing the result of log\.New`
	s := &fieldLogger{logger: log.New(os.Stderr, "srv: ", log.LstdFlags)}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		if s.logger == nil {
			panic("no logger")
		}
		wg.Done()
	}()
	wg.Wait()
}
