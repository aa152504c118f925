// Package prometheusreload is written in the style of Prometheus' scrape
// manager applying a new configuration: one goroutine per scrape pool
// reloads it and reports on a channel, and the manager returns the first
// error. The bug is a send with no receiver: the channel is unbuffered
// and the manager stops receiving at the first error, so a pool that
// reports after it blocks forever (a leak). It happens only when the
// failing pool reports first.
package prometheusreload

import "errors"

var errInvalidConfig = errors.New("invalid scrape config")

// scrapePool scrapes the targets of one job.
type scrapePool struct {
	interval int32
}

// reload applies the pool's new configuration.
func (sp *scrapePool) reload() error {
	if sp.interval == 0 {
		return errInvalidConfig
	}
	return nil
}

// Manager holds the scrape pools.
type Manager struct {
	pools [2]scrapePool
}

// ApplyConfig reloads every pool concurrently and returns the first
// error; each pool sends its index on errc when it fails, -1 when not.
func (m *Manager) ApplyConfig(errc chan int) error {
	for i := 0; i < 2; i++ {
		go func() {
			if err := m.pools[i].reload(); err != nil {
				errc <- i
				return
			}
			errc <- -1 // want `^leak: go@\d+\(i=1\) blocks forever in errc <- -1 after system reloadConfig returns$`
		}()
	}
	for range 2 {
		if failed := <-errc; failed >= 0 {
			return errInvalidConfig
		}
	}
	return nil
}

// reloadConfig reloads a broken pool beside a good one.
//
//fencecheck:system
func reloadConfig() {
	m := &Manager{pools: [2]scrapePool{{interval: 0}, {interval: 15}}}
	errc := make(chan int)
	_ = m.ApplyConfig(errc)
}

// reloadConfigFixed gives errc room for every pool's report.
//
//fencecheck:system
func reloadConfigFixed() {
	m := &Manager{pools: [2]scrapePool{{interval: 0}, {interval: 15}}}
	errc := make(chan int, 2)
	_ = m.ApplyConfig(errc)
}
