// Package parallelerrs follows ParallelizeUntil of
// k8s.io/client-go/util/workqueue as Kubernetes' controllers call it: the
// pieces' indexes are put on a buffered channel, closed, and a few
// workers take them until it is empty; each piece's error goes into its
// own element of a slice made for the pieces, and once the workers are
// done the errors are joined (errors.Join(errs...) stands for
// utilerrors.NewAggregate).
//
// Expected, by hand: syncAll is correct and race-free: three pieces on two
// workers, pieces 1 and 2 fail with ErrConflict, piece 0 succeeds, and
// errors.Is finds ErrConflict in the join. The mutant
// syncAllShared puts the errors of pieces 1 and 2 in one element (an
// index halved by mistake): two workers may write it at once (race
// finding), and one failure is lost (the SC finding on the panic).
package parallelerrs

import (
	"errors"
	"sync"
)

// ErrConflict is the error of a piece whose update conflicted.
var ErrConflict = errors.New("conflict")

// ParallelizeUntil runs doWorkPiece for each of pieces on workers
// goroutines.
func ParallelizeUntil(workers, pieces int, doWorkPiece func(piece int)) {
	toProcess := make(chan int, pieces)
	for i := range pieces {
		toProcess <- i
	}
	close(toProcess)
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		go func() {
			defer wg.Done()
			for piece := range toProcess {
				doWorkPiece(piece)
			}
		}()
	}
	wg.Wait()
}

func syncPiece(piece int) error {
	if piece == 0 {
		return nil
	}
	return ErrConflict
}

//fencecheck:system
func syncAll() {
	errs := make([]error, 3)
	ParallelizeUntil(2, 3, func(piece int) {
		errs[piece] = syncPiece(piece)
	})
	err := errors.Join(errs...)
	if !errors.Is(err, ErrConflict) || errs[0] != nil {
		panic("the failures are not the pieces'")
	}
}

//fencecheck:system
func syncAllShared() {
	errs := make([]error, 3)
	ParallelizeUntil(2, 3, func(piece int) {
		if err := syncPiece(piece); err != nil {
			errs[(piece+1)/2] = err // want `^race: `
		}
	})
	var failed int
	for _, err := range errs {
		if err != nil {
			failed++
		}
	}
	if failed != 2 {
		panic("a failed piece was lost") // want `^SC: system syncAllShared is wrong even under sequential consistency`
	}
}
