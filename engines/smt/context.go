//go:build cgo && !fencecheck_noz3

package smt

/*
#cgo LDFLAGS: -lz3
#include <stdlib.h>
#include <z3.h>
#include "fc.h"

// fc_ignore_error is the Context's error handler: it returns, so the failing
// API call returns a dummy value and leaves its error code for the caller.
static void fc_ignore_error(Z3_context c, Z3_error_code e) { (void)c; (void)e; }

static void fc_install_handler(Z3_context c) { Z3_set_error_handler(c, fc_ignore_error); }
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"time"
	"unsafe"
)

// Available reports whether this build has Z3: true in the cgo binding,
// false in the build without Z3, where every operation fails with
// [ErrUnavailable].
const Available = true

// contextParams are the Z3 context parameters a Config may set. Z3 only
// warns on unknown names, so they are checked here; parameters that would
// let ill-sorted terms through (type_check) or write files are left out.
var contextParams = map[string]bool{
	"auto_config": true, "encoding": true, "model": true,
	"model_validate": true, "proof": true, "rlimit": true,
	"smtlib2_compliant": true, "timeout": true, "unsat_core": true,
}

// Context is a Z3 context: the factory and owner of terms, solvers and
// models. Its methods may be called from several goroutines; the calls into
// Z3 are serialised.
type Context struct {
	core    *core
	timeout time.Duration
}

// core is the part of a Context that cleanups reach. It must not point back
// to the Context, so that an unused Context becomes unreachable.
type core struct {
	mu  sync.Mutex
	ctx C.Z3_context // nil once deleted; changed with mu and imu held

	// imu guards ctx for Interrupt, which must not wait for mu.
	imu sync.Mutex

	intSort  C.Z3_sort
	boolSort C.Z3_sort

	pendMu  sync.Mutex
	pending []release
}

type relKind uint8

const (
	relAST relKind = iota
	relSolver
	relModel
)

// release is one Z3 reference waiting to be dropped.
type release struct {
	kind relKind
	ptr  unsafe.Pointer
}

// cleanupArg is what a Go value's cleanup needs: the core and the object.
type cleanupArg struct {
	c *core
	r release
}

// enqueue is the cleanup of every Go value that holds a Z3 reference. It runs
// on the runtime's cleanup goroutine and only appends to the release list.
func enqueue(a cleanupArg) {
	a.c.pendMu.Lock()
	a.c.pending = append(a.c.pending, a.r)
	a.c.pendMu.Unlock()
}

// NewContext makes a Context configured by cfg.
func NewContext(cfg Config) (*Context, error) {
	if cfg.Timeout < 0 {
		return nil, fmt.Errorf("smt: negative timeout %v", cfg.Timeout)
	}
	names := make([]string, 0, len(cfg.Params))
	for k := range cfg.Params {
		if !contextParams[k] {
			return nil, fmt.Errorf("smt: unknown Z3 context parameter %q", k)
		}
		if k == "timeout" && cfg.Timeout != 0 {
			return nil, errors.New(`smt: both Config.Timeout and the "timeout" parameter are set`)
		}
		names = append(names, k)
	}
	sort.Strings(names)
	cfgC := C.Z3_mk_config()
	defer C.Z3_del_config(cfgC)
	set := func(k, v string) {
		ck, cv := C.CString(k), C.CString(v)
		C.Z3_set_param_value(cfgC, ck, cv)
		C.free(unsafe.Pointer(ck))
		C.free(unsafe.Pointer(cv))
	}
	for _, k := range names {
		set(k, cfg.Params[k])
	}
	if cfg.Timeout > 0 {
		set("timeout", strconv.FormatInt(timeoutMillis(cfg.Timeout), 10))
	}
	z := C.Z3_mk_context_rc(cfgC)
	if z == nil {
		return nil, errors.New("smt: Z3_mk_context_rc failed")
	}
	C.fc_install_handler(z)
	cr := &core{ctx: z}
	cr.intSort = C.Z3_mk_int_sort(z)
	C.Z3_inc_ref(z, C.Z3_sort_to_ast(z, cr.intSort))
	cr.boolSort = C.Z3_mk_bool_sort(z)
	C.Z3_inc_ref(z, C.Z3_sort_to_ast(z, cr.boolSort))
	if err := cr.check("NewContext"); err != nil {
		C.Z3_del_context(z)
		return nil, err
	}
	c := &Context{core: cr, timeout: cfg.Timeout}
	runtime.AddCleanup(c, func(cr *core) { cr.delete() }, cr)
	return c, nil
}

// timeoutMillis rounds d up to whole milliseconds, as Z3 counts them.
func timeoutMillis(d time.Duration) int64 {
	ms := (d + time.Millisecond - 1) / time.Millisecond
	if ms > 1<<31 {
		ms = 1 << 31
	}
	return int64(ms)
}

// Close deletes the Z3 context and everything made in it. Terms, solvers and
// models of the Context are unusable afterwards. Close is idempotent.
func (c *Context) Close() error {
	c.core.delete()
	return nil
}

func (cr *core) delete() {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	if cr.ctx == nil {
		return
	}
	cr.imu.Lock()
	C.Z3_del_context(cr.ctx)
	cr.ctx = nil
	cr.imu.Unlock()
	cr.pendMu.Lock()
	cr.pending = nil
	cr.pendMu.Unlock()
}

// Interrupt stops the solver check or tactic running in the Context, which
// then answers Unknown or fails with an error; it does not wait for
// the Context's mutex and may be called from any goroutine, for example
// through context.AfterFunc(ctx, c.Interrupt) to honour a deadline. Calls
// made after the interrupted one run normally.
func (c *Context) Interrupt() {
	cr := c.core
	cr.imu.Lock()
	defer cr.imu.Unlock()
	if cr.ctx != nil {
		C.Z3_interrupt(cr.ctx)
	}
}

// lock takes the Context's mutex, reports ErrClosed (with the mutex
// released) on a closed Context, and drops the pending references.
func (cr *core) lock() error {
	cr.mu.Lock()
	if cr.ctx == nil {
		cr.mu.Unlock()
		return ErrClosed
	}
	cr.pendMu.Lock()
	pend := cr.pending
	cr.pending = nil
	cr.pendMu.Unlock()
	var asts []C.Z3_ast
	for _, r := range pend {
		switch r.kind {
		case relAST:
			asts = append(asts, C.Z3_ast(r.ptr))
		case relSolver:
			C.Z3_solver_dec_ref(cr.ctx, C.Z3_solver(r.ptr))
		case relModel:
			C.Z3_model_dec_ref(cr.ctx, C.Z3_model(r.ptr))
		}
	}
	if len(asts) > 0 {
		C.fc_dec_refs(cr.ctx, astArray(asts), C.uint(len(asts)))
	}
	return nil
}

func (cr *core) unlock() { cr.mu.Unlock() }

// check turns the error code of the last Z3 call into a Go error and resets
// it. The mutex must be held.
func (cr *core) check(op string) error {
	code := C.Z3_get_error_code(cr.ctx)
	if code == C.Z3_OK {
		return nil
	}
	return cr.errorFor(op, code)
}

// errorFor turns the error code of the last Z3 call into a Go error and
// resets it. The mutex must be held.
func (cr *core) errorFor(op string, code C.Z3_error_code) error {
	msg := C.GoString(C.Z3_get_error_msg(cr.ctx, code))
	C.Z3_set_error(cr.ctx, C.Z3_OK)
	return fmt.Errorf("smt: %s: z3: %s", op, msg)
}

// pendingReleases reports how many references wait on the release list.
func (c *Context) pendingReleases() int {
	c.core.pendMu.Lock()
	defer c.core.pendMu.Unlock()
	return len(c.core.pending)
}

// EstimatedAllocSize returns Z3's estimate of the bytes it has allocated in
// this process, over all contexts (Z3_get_estimated_alloc_size).
func EstimatedAllocSize() uint64 {
	return uint64(C.Z3_get_estimated_alloc_size())
}

// Version returns the version of the linked Z3 library, e.g. "4.8.12".
func Version() string {
	var major, minor, build, rev C.uint
	C.Z3_get_version(&major, &minor, &build, &rev)
	return fmt.Sprintf("%d.%d.%d", major, minor, build)
}
