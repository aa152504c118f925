// Small helpers that fold several Z3 calls into one cgo call.
#include <z3.h>

// fc_keep takes a reference to r, if Z3 returned one, and returns the error
// code of the call that made r.
static inline Z3_error_code fc_keep(Z3_context c, Z3_ast r) {
	Z3_error_code e = Z3_get_error_code(c);
	if (r != NULL) {
		Z3_inc_ref(c, r);
	}
	return e;
}

// fc_dec_refs drops one reference to each of the n terms.
static inline void fc_dec_refs(Z3_context c, Z3_ast *as, unsigned n) {
	for (unsigned i = 0; i < n; i++) {
		Z3_dec_ref(c, as[i]);
	}
}
