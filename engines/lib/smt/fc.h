// Declarations of the part of the Z3 C API that the binding uses, and small
// helpers that fold several Z3 calls into one cgo call.
//
// The binding does not link libz3: the library is opened with dlopen on the
// first NewContext (fc_load), so that processes that never build a Context
// never load it. The types and enumeration values below follow z3_api.h of
// Z3 4.8 (the soname libz3.so.4); every API function is reached through a
// pointer fcp_NAME resolved with dlsym, behind a static inline function with
// the API's own name, so the Go code calls C.Z3_mk_add and so on as usual.
// Calling any of them before fc_load has succeeded is a null-pointer call.
#ifndef FENCECHECK_SMT_FC_H
#define FENCECHECK_SMT_FC_H

#include <stdbool.h>
#include <stdint.h>

typedef const char *Z3_string;
typedef struct _Z3_config *Z3_config;
typedef struct _Z3_context *Z3_context;
typedef struct _Z3_symbol *Z3_symbol;
typedef struct _Z3_ast *Z3_ast;
typedef struct _Z3_sort *Z3_sort;
typedef struct _Z3_func_decl *Z3_func_decl;
typedef struct _Z3_app *Z3_app;
typedef struct _Z3_pattern *Z3_pattern;
typedef struct _Z3_params *Z3_params;
typedef struct _Z3_model *Z3_model;
typedef struct _Z3_solver *Z3_solver;
typedef struct _Z3_ast_vector *Z3_ast_vector;
typedef struct _Z3_goal *Z3_goal;
typedef struct _Z3_tactic *Z3_tactic;
typedef struct _Z3_apply_result *Z3_apply_result;

typedef enum { Z3_L_FALSE = -1, Z3_L_UNDEF = 0, Z3_L_TRUE = 1 } Z3_lbool;

// Only the members the binding uses; the values are those of Z3 4.8.
typedef enum {
	Z3_UNINTERPRETED_SORT = 0,
	Z3_BOOL_SORT = 1,
	Z3_INT_SORT = 2,
} Z3_sort_kind;

typedef enum {
	Z3_NUMERAL_AST = 0,
	Z3_APP_AST = 1,
	Z3_VAR_AST = 2,
	Z3_QUANTIFIER_AST = 3,
} Z3_ast_kind;

typedef enum {
	Z3_OP_TRUE = 0x100,
	Z3_OP_FALSE = 0x101,
	Z3_OP_EQ = 0x102,
	Z3_OP_DISTINCT = 0x103,
	Z3_OP_ITE = 0x104,
	Z3_OP_AND = 0x105,
	Z3_OP_OR = 0x106,
	Z3_OP_IFF = 0x107,
	Z3_OP_NOT = 0x109,
	Z3_OP_IMPLIES = 0x10a,
	Z3_OP_ANUM = 0x200,
	Z3_OP_LE = 0x202,
	Z3_OP_GE = 0x203,
	Z3_OP_LT = 0x204,
	Z3_OP_GT = 0x205,
	Z3_OP_ADD = 0x206,
	Z3_OP_SUB = 0x207,
	Z3_OP_UMINUS = 0x208,
	Z3_OP_MUL = 0x209,
	Z3_OP_IDIV = 0x20b,
	Z3_OP_REM = 0x20c,
	Z3_OP_MOD = 0x20d,
	Z3_OP_UNINTERPRETED = 45101,
} Z3_decl_kind;

typedef enum { Z3_OK = 0 } Z3_error_code;

typedef void Z3_error_handler(Z3_context c, Z3_error_code e);

// FC_Z3_API lists the API functions the binding calls: F(ret, name, params,
// args) for a function with a result, V(name, params, args) for one without.
#define FC_Z3_API(F, V) \
	V(Z3_apply_result_dec_ref, (Z3_context c, Z3_apply_result r), (c, r)) \
	F(unsigned, Z3_apply_result_get_num_subgoals, (Z3_context c, Z3_apply_result r), (c, r)) \
	F(Z3_goal, Z3_apply_result_get_subgoal, (Z3_context c, Z3_apply_result r, unsigned i), (c, r, i)) \
	V(Z3_apply_result_inc_ref, (Z3_context c, Z3_apply_result r), (c, r)) \
	V(Z3_ast_vector_inc_ref, (Z3_context c, Z3_ast_vector v), (c, v)) \
	V(Z3_ast_vector_dec_ref, (Z3_context c, Z3_ast_vector v), (c, v)) \
	F(unsigned, Z3_ast_vector_size, (Z3_context c, Z3_ast_vector v), (c, v)) \
	F(Z3_ast, Z3_ast_vector_get, (Z3_context c, Z3_ast_vector v, unsigned i), (c, v, i)) \
	F(Z3_string, Z3_ast_to_string, (Z3_context c, Z3_ast a), (c, a)) \
	V(Z3_dec_ref, (Z3_context c, Z3_ast a), (c, a)) \
	V(Z3_del_config, (Z3_config c), (c)) \
	V(Z3_del_context, (Z3_context c), (c)) \
	F(Z3_ast, Z3_get_app_arg, (Z3_context c, Z3_app a, unsigned i), (c, a, i)) \
	F(Z3_func_decl, Z3_get_app_decl, (Z3_context c, Z3_app a), (c, a)) \
	F(unsigned, Z3_get_app_num_args, (Z3_context c, Z3_app a), (c, a)) \
	F(unsigned, Z3_get_ast_id, (Z3_context c, Z3_ast t), (c, t)) \
	F(Z3_ast_kind, Z3_get_ast_kind, (Z3_context c, Z3_ast a), (c, a)) \
	F(Z3_lbool, Z3_get_bool_value, (Z3_context c, Z3_ast a), (c, a)) \
	F(Z3_decl_kind, Z3_get_decl_kind, (Z3_context c, Z3_func_decl d), (c, d)) \
	F(Z3_symbol, Z3_get_decl_name, (Z3_context c, Z3_func_decl d), (c, d)) \
	F(Z3_error_code, Z3_get_error_code, (Z3_context c), (c)) \
	F(Z3_string, Z3_get_error_msg, (Z3_context c, Z3_error_code err), (c, err)) \
	F(uint64_t, Z3_get_estimated_alloc_size, (void), ()) \
	F(bool, Z3_get_numeral_int64, (Z3_context c, Z3_ast v, int64_t* i), (c, v, i)) \
	F(Z3_string, Z3_get_numeral_string, (Z3_context c, Z3_ast a), (c, a)) \
	F(Z3_sort, Z3_get_sort, (Z3_context c, Z3_ast a), (c, a)) \
	F(Z3_sort_kind, Z3_get_sort_kind, (Z3_context c, Z3_sort t), (c, t)) \
	F(Z3_string, Z3_get_symbol_string, (Z3_context c, Z3_symbol s), (c, s)) \
	V(Z3_get_version, (unsigned * major, unsigned * minor, unsigned * build_number, unsigned * revision_number), (major, minor, build_number, revision_number)) \
	V(Z3_goal_assert, (Z3_context c, Z3_goal g, Z3_ast a), (c, g, a)) \
	V(Z3_goal_dec_ref, (Z3_context c, Z3_goal g), (c, g)) \
	F(Z3_ast, Z3_goal_formula, (Z3_context c, Z3_goal g, unsigned idx), (c, g, idx)) \
	V(Z3_goal_inc_ref, (Z3_context c, Z3_goal g), (c, g)) \
	F(unsigned, Z3_goal_size, (Z3_context c, Z3_goal g), (c, g)) \
	V(Z3_inc_ref, (Z3_context c, Z3_ast a), (c, a)) \
	V(Z3_interrupt, (Z3_context c), (c)) \
	F(bool, Z3_is_quantifier_exists, (Z3_context c, Z3_ast a), (c, a)) \
	F(bool, Z3_is_quantifier_forall, (Z3_context c, Z3_ast a), (c, a)) \
	F(Z3_ast, Z3_mk_add, (Z3_context c, unsigned num_args, Z3_ast const args[]), (c, num_args, args)) \
	F(Z3_ast, Z3_mk_and, (Z3_context c, unsigned num_args, Z3_ast const args[]), (c, num_args, args)) \
	F(Z3_sort, Z3_mk_bool_sort, (Z3_context c), (c)) \
	F(Z3_config, Z3_mk_config, (void), ()) \
	F(Z3_ast, Z3_mk_const, (Z3_context c, Z3_symbol s, Z3_sort ty), (c, s, ty)) \
	F(Z3_context, Z3_mk_context_rc, (Z3_config c), (c)) \
	F(Z3_ast, Z3_mk_distinct, (Z3_context c, unsigned num_args, Z3_ast const args[]), (c, num_args, args)) \
	F(Z3_ast, Z3_mk_div, (Z3_context c, Z3_ast arg1, Z3_ast arg2), (c, arg1, arg2)) \
	F(Z3_ast, Z3_mk_eq, (Z3_context c, Z3_ast l, Z3_ast r), (c, l, r)) \
	F(Z3_ast, Z3_mk_exists_const, (Z3_context c, unsigned weight, unsigned num_bound, Z3_app const bound[], unsigned num_patterns, Z3_pattern const patterns[], Z3_ast body), (c, weight, num_bound, bound, num_patterns, patterns, body)) \
	F(Z3_ast, Z3_mk_false, (Z3_context c), (c)) \
	F(Z3_ast, Z3_mk_forall_const, (Z3_context c, unsigned weight, unsigned num_bound, Z3_app const bound[], unsigned num_patterns, Z3_pattern const patterns[], Z3_ast body), (c, weight, num_bound, bound, num_patterns, patterns, body)) \
	F(Z3_ast, Z3_mk_ge, (Z3_context c, Z3_ast t1, Z3_ast t2), (c, t1, t2)) \
	F(Z3_goal, Z3_mk_goal, (Z3_context c, bool models, bool unsat_cores, bool proofs), (c, models, unsat_cores, proofs)) \
	F(Z3_ast, Z3_mk_gt, (Z3_context c, Z3_ast t1, Z3_ast t2), (c, t1, t2)) \
	F(Z3_ast, Z3_mk_implies, (Z3_context c, Z3_ast t1, Z3_ast t2), (c, t1, t2)) \
	F(Z3_ast, Z3_mk_int64, (Z3_context c, int64_t v, Z3_sort ty), (c, v, ty)) \
	F(Z3_sort, Z3_mk_int_sort, (Z3_context c), (c)) \
	F(Z3_ast, Z3_mk_ite, (Z3_context c, Z3_ast t1, Z3_ast t2, Z3_ast t3), (c, t1, t2, t3)) \
	F(Z3_ast, Z3_mk_le, (Z3_context c, Z3_ast t1, Z3_ast t2), (c, t1, t2)) \
	F(Z3_ast, Z3_mk_lt, (Z3_context c, Z3_ast t1, Z3_ast t2), (c, t1, t2)) \
	F(Z3_ast, Z3_mk_mod, (Z3_context c, Z3_ast arg1, Z3_ast arg2), (c, arg1, arg2)) \
	F(Z3_ast, Z3_mk_mul, (Z3_context c, unsigned num_args, Z3_ast const args[]), (c, num_args, args)) \
	F(Z3_ast, Z3_mk_not, (Z3_context c, Z3_ast a), (c, a)) \
	F(Z3_ast, Z3_mk_or, (Z3_context c, unsigned num_args, Z3_ast const args[]), (c, num_args, args)) \
	F(Z3_params, Z3_mk_params, (Z3_context c), (c)) \
	F(Z3_solver, Z3_mk_simple_solver, (Z3_context c), (c)) \
	F(Z3_symbol, Z3_mk_string_symbol, (Z3_context c, Z3_string s), (c, s)) \
	F(Z3_ast, Z3_mk_sub, (Z3_context c, unsigned num_args, Z3_ast const args[]), (c, num_args, args)) \
	F(Z3_tactic, Z3_mk_tactic, (Z3_context c, Z3_string name), (c, name)) \
	F(Z3_ast, Z3_mk_true, (Z3_context c), (c)) \
	F(Z3_ast, Z3_mk_unary_minus, (Z3_context c, Z3_ast arg), (c, arg)) \
	V(Z3_model_dec_ref, (Z3_context c, Z3_model m), (c, m)) \
	F(bool, Z3_model_eval, (Z3_context c, Z3_model m, Z3_ast t, bool model_completion, Z3_ast * v), (c, m, t, model_completion, v)) \
	V(Z3_model_inc_ref, (Z3_context c, Z3_model m), (c, m)) \
	F(Z3_string, Z3_model_to_string, (Z3_context c, Z3_model m), (c, m)) \
	V(Z3_params_dec_ref, (Z3_context c, Z3_params p), (c, p)) \
	V(Z3_params_inc_ref, (Z3_context c, Z3_params p), (c, p)) \
	V(Z3_params_set_uint, (Z3_context c, Z3_params p, Z3_symbol k, unsigned v), (c, p, k, v)) \
	V(Z3_set_error, (Z3_context c, Z3_error_code e), (c, e)) \
	V(Z3_set_param_value, (Z3_config c, Z3_string param_id, Z3_string param_value), (c, param_id, param_value)) \
	F(Z3_ast, Z3_simplify, (Z3_context c, Z3_ast a), (c, a)) \
	V(Z3_solver_assert, (Z3_context c, Z3_solver s, Z3_ast a), (c, s, a)) \
	F(Z3_lbool, Z3_solver_check, (Z3_context c, Z3_solver s), (c, s)) \
	F(Z3_lbool, Z3_solver_check_assumptions, (Z3_context c, Z3_solver s, unsigned num_assumptions, Z3_ast const assumptions[]), (c, s, num_assumptions, assumptions)) \
	V(Z3_solver_dec_ref, (Z3_context c, Z3_solver s), (c, s)) \
	F(Z3_model, Z3_solver_get_model, (Z3_context c, Z3_solver s), (c, s)) \
	F(unsigned, Z3_solver_get_num_scopes, (Z3_context c, Z3_solver s), (c, s)) \
	F(Z3_string, Z3_solver_get_reason_unknown, (Z3_context c, Z3_solver s), (c, s)) \
	F(Z3_ast_vector, Z3_solver_get_unsat_core, (Z3_context c, Z3_solver s), (c, s)) \
	V(Z3_solver_inc_ref, (Z3_context c, Z3_solver s), (c, s)) \
	V(Z3_solver_pop, (Z3_context c, Z3_solver s, unsigned n), (c, s, n)) \
	V(Z3_solver_push, (Z3_context c, Z3_solver s), (c, s)) \
	V(Z3_solver_reset, (Z3_context c, Z3_solver s), (c, s)) \
	V(Z3_solver_set_params, (Z3_context c, Z3_solver s, Z3_params p), (c, s, p)) \
	F(Z3_ast, Z3_sort_to_ast, (Z3_context c, Z3_sort s), (c, s)) \
	F(Z3_ast, Z3_substitute, (Z3_context c, Z3_ast a, unsigned num_exprs, Z3_ast const from[], Z3_ast const to[]), (c, a, num_exprs, from, to)) \
	F(Z3_tactic, Z3_tactic_and_then, (Z3_context c, Z3_tactic t1, Z3_tactic t2), (c, t1, t2)) \
	F(Z3_apply_result, Z3_tactic_apply, (Z3_context c, Z3_tactic t, Z3_goal g), (c, t, g)) \
	V(Z3_tactic_dec_ref, (Z3_context c, Z3_tactic g), (c, g)) \
	V(Z3_tactic_inc_ref, (Z3_context c, Z3_tactic t), (c, t)) \
	F(Z3_tactic, Z3_tactic_try_for, (Z3_context c, Z3_tactic t, unsigned ms), (c, t, ms)) \
	F(Z3_app, Z3_to_app, (Z3_context c, Z3_ast a), (c, a)) \
	V(Z3_set_error_handler, (Z3_context c, Z3_error_handler h), (c, h))

#define FC_EXTERN_F(R, N, P, A) extern R(*fcp_##N) P;
#define FC_EXTERN_V(N, P, A) extern void(*fcp_##N) P;
FC_Z3_API(FC_EXTERN_F, FC_EXTERN_V)
#undef FC_EXTERN_F
#undef FC_EXTERN_V

#define FC_WRAP_F(R, N, P, A) static inline R N P { return fcp_##N A; }
#define FC_WRAP_V(N, P, A) static inline void N P { fcp_##N A; }
FC_Z3_API(FC_WRAP_F, FC_WRAP_V)
#undef FC_WRAP_F
#undef FC_WRAP_V

// fc_load opens the named Z3 library and resolves every function of
// FC_Z3_API. It returns NULL on success and dlerror's message otherwise.
const char *fc_load(const char *name);

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

#endif
