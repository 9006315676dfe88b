// Package sharedcases finds the reference cases kept beside the
// repository, in ../shared/conformance (relative to the repository's root:
// the folder holding go.mod), for tests.
//
// A checkout without them (a clone on its own) skips those tests, saying
// where they were looked for; LUAINTERP_SHARED_CONFORMANCE names another
// folder. From a git worktree below a folder of worktrees, the parents of
// the root are searched in turn, so ../../shared serves as well.
package sharedcases
