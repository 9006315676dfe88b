// Package ratelimit bounds how often an interpreter is called: a
// middleware of token buckets, as Envoy's local rate limit filter has them
// (max_tokens, tokens_per_fill, fill_interval), one for the whole
// interpreter, or one per operation, per kind or per hook.
//
// A bucket holds up to MaxTokens tokens and gains TokensPerFill every
// FillInterval (spread evenly over the interval, as golang.org/x/time/rate
// fills). A call takes a token and runs, or, when the bucket is empty,
// fails at once with an *Error that says when a token will be there
// (RetryAfter); errors.Is(err, interpreter.ErrOverloaded) holds for it.
// Under steady overload a bucket thus passes TokensPerFill calls per
// FillInterval, give or take one, and refuses the rest without running
// them.
package ratelimit
