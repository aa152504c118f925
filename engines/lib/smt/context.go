//go:build cgo && !fencecheck_noz3

package smt

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdlib.h>
#include "fc.h"

// The function pointers of FC_Z3_API, defined in this file only.
#define FC_DEFINE_F(R, N, P, A) R(*fcp_##N) P;
#define FC_DEFINE_V(N, P, A) void(*fcp_##N) P;
FC_Z3_API(FC_DEFINE_F, FC_DEFINE_V)
#undef FC_DEFINE_F
#undef FC_DEFINE_V

const char *fc_load(const char *name) {
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		return dlerror();
	}
	// Look every symbol up before publishing any, so that a failed load
	// leaves all pointers as they were. The handle of a library that lacks
	// a symbol is kept open: dlclose could free dlerror's message.
#define FC_COUNT(...) +1
	void *syms[0 FC_Z3_API(FC_COUNT, FC_COUNT)];
#undef FC_COUNT
	int i = 0;
#define FC_LOOKUP_F(R, N, P, A) \
	if ((syms[i++] = dlsym(h, #N)) == NULL) { \
		return dlerror(); \
	}
#define FC_LOOKUP_V(N, P, A) FC_LOOKUP_F(void, N, P, A)
	FC_Z3_API(FC_LOOKUP_F, FC_LOOKUP_V)
#undef FC_LOOKUP_F
#undef FC_LOOKUP_V
	i = 0;
#define FC_SET_F(R, N, P, A) fcp_##N = (__typeof__(fcp_##N))syms[i++];
#define FC_SET_V(N, P, A) FC_SET_F(void, N, P, A)
	FC_Z3_API(FC_SET_F, FC_SET_V)
#undef FC_SET_F
#undef FC_SET_V
	return NULL;
}

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
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Available reports whether this build has Z3: true in the cgo binding,
// false in the build without Z3, where every operation fails with
// [ErrUnavailable]. In the cgo binding, the library itself is loaded by the
// first [NewContext], which fails with [ErrUnavailable] if it is missing.
const Available = true

// libNames are the names under which the Z3 library is looked for, in order:
// the soname of Z3 4.x, then the unversioned development link.
var libNames = []string{"libz3.so.4", "libz3.so"}

// lib is the state of the Z3 library, which is loaded by the first
// [NewContext] (or [Version]) rather than at start-up, so that processes
// that never use Z3 do not pay for loading it.
var lib struct {
	once   sync.Once
	err    error
	loaded atomic.Bool
}

// load opens the Z3 library and resolves the API functions the binding
// calls, once per process. Its error wraps [ErrUnavailable].
func load() error {
	lib.once.Do(func() {
		var msgs []string
		for _, name := range libNames {
			cname := C.CString(name)
			msg := C.fc_load(cname)
			C.free(unsafe.Pointer(cname))
			if msg == nil {
				lib.loaded.Store(true)
				// The enum values declared in fc.h are Z3 4.8's; another
				// minor release may number the operators differently.
				var major, minor, build, rev C.uint
				C.Z3_get_version(&major, &minor, &build, &rev)
				if major != 4 || minor != 8 {
					lib.err = fmt.Errorf("smt: %s is Z3 %d.%d.%d, and this binding declares Z3 4.8's API: %w", name, major, minor, build, ErrUnavailable)
				}
				return
			}
			msgs = append(msgs, C.GoString(msg))
		}
		lib.err = fmt.Errorf("smt: loading Z3 (%s): %w", strings.Join(msgs, "; "), ErrUnavailable)
	})
	return lib.err
}

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

	// slab is where the next Exprs are allocated, slabUsed how many of
	// its Exprs are handed out and terms their references; all three are
	// guarded by core.mu. The slab's cleanup releases every term in it.
	slab     *exprSlab
	slabUsed int
	terms    *slabTerms
}

// slabSize is how many Exprs share one allocation and one cleanup.
// Registering a cleanup costs more than making a small term, so Exprs are
// allocated in slabs; a slab's terms are released together, once none of
// its Exprs is reachable. That keeps a term alive for longer than its own
// Expr, bounded by the slab.
const slabSize = 64

type exprSlab [slabSize]Expr

// slabTerms are the references held by the Exprs of one slab.
type slabTerms struct {
	n    int
	asts [slabSize]C.Z3_ast
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

	// slabs maps a slab's number to its terms; guarded by mu.
	slabs    map[uint64]*slabTerms
	lastSlab uint64

	pendMu  sync.Mutex
	pending []release
}

type relKind uint8

const (
	relSolver relKind = iota
	relModel
	relSlab
)

// release is one Z3 reference, or a slab's references, waiting to be
// dropped.
type release struct {
	kind relKind
	ptr  unsafe.Pointer
	slab uint64
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
	if err := load(); err != nil {
		return nil, err
	}
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
	cr.slabs = nil
	cr.pendMu.Lock()
	cr.pending = nil
	cr.pendMu.Unlock()
}

// Interrupt stops the solver check or tactic running in the Context, which
// then answers Unknown or fails with an error; it does not wait for
// the Context's mutex and may be called from any goroutine, for example
// through context.AfterFunc(ctx, c.Interrupt) to honour a deadline. An
// interrupt that arrives between checks may fail the next call instead
// (with "canceled"), so a caller treats any error after an interrupt as the
// interrupt's, and does not reuse the Context.
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
		case relSolver:
			C.Z3_solver_dec_ref(cr.ctx, C.Z3_solver(r.ptr))
		case relModel:
			C.Z3_model_dec_ref(cr.ctx, C.Z3_model(r.ptr))
		case relSlab:
			if t := cr.slabs[r.slab]; t != nil {
				asts = append(asts, t.asts[:t.n]...)
				delete(cr.slabs, r.slab)
			}
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
// It is 0 while the library is not loaded.
func EstimatedAllocSize() uint64 {
	if !lib.loaded.Load() {
		return 0
	}
	return uint64(C.Z3_get_estimated_alloc_size())
}

// Version returns the version of the Z3 library, e.g. "4.8.12", loading
// it if need be; it returns "" if the library cannot be loaded.
func Version() string {
	if load() != nil && !lib.loaded.Load() {
		return ""
	}
	var major, minor, build, rev C.uint
	C.Z3_get_version(&major, &minor, &build, &rev)
	return fmt.Sprintf("%d.%d.%d", major, minor, build)
}
