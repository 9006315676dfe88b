package luavm

// WithoutHoisting compiles scripts as written, without hoisting the
// chains they read again (luasyntax.Hoist): tests compare the two.
func WithoutHoisting() Option { return func(c *config) { c.asWritten = true } }
