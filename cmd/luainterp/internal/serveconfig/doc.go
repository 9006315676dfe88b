// Package serveconfig is the configuration file of `luainterp serve`: the
// limits that protect the server under overload, its deadlines and its
// Lua engine, in one YAML file, with Envoy's names where Envoy has the
// same knob.
//
//	circuit_breakers:      # a bulkhead per hook (a kind and an operation)
//	  max_requests: 4            # calls of one hook running at once; half the default pool
//	  max_pending_requests: 128  # calls of one hook waiting for a slot
//	  max_wait: 100ms            # the longest one waits; 0: its deadline
//	local_ratelimit:       # token buckets; a refused call gets HTTP 429
//	  token_bucket:              # the server's (or each scope's) bucket; none when absent
//	    max_tokens: 1000
//	    tokens_per_fill: 1000
//	    fill_interval: 1s
//	  scope: server              # server, operation, kind or hook
//	  descriptors:               # buckets of their own for some calls
//	    - operation: InterpretHealth   # and/or api_version with kind
//	      token_bucket: {max_tokens: 100, tokens_per_fill: 100, fill_interval: 1s}
//	outlier_detection:     # eject what keeps failing; its calls get 503 at once
//	  consecutive_5xx: 5         # failures in a row that eject
//	  base_ejection_time: 30s    # the first ejection; n times that the n-th in a row
//	  max_ejection_time: 300s    # the longest ejection
//	  interval: 10s              # closed this long: one ejection in a row forgiven
//	  webhooks: true             # remote webhooks: no answer or HTTP 5xx
//	  hooks: true                # hooks: a call past its deadline or memory budget
//	engine:                # the Lua engine
//	  pool_size: 8               # Lua states, so calls running at once; 2×CPUs, at least 8
//	  deadline: 1s               # the longest one Lua call runs
//	  memory_budget: 128Mi       # heap growth allowed one call
//	  output_limit: 3Mi          # the longest JSON of one call's result
//	timeout: 10s           # the longest one operation runs
//	max_body_bytes: 8Mi    # the largest request body
//	drain_period: 5s       # on SIGTERM: not ready, still serving, this long
//	shutdown_grace: 20s    # then: how long requests in flight may finish
//	access_log: ""         # a file for the access log; standard error when empty
//
// Default returns the values a fresh install runs with, which protect it:
// every hook has a bulkhead, every call a deadline. Load reads a file over
// those defaults, strictly: a key the file should not have is an error
// naming the file and the key's path (circuit_breakers.max_request), as is
// a duplicate key. Validate reports each value that cannot work, by its
// path. Every error is a *FieldError.
//
// The effective deadline of a Lua call is the shorter of timeout and
// engine.deadline (Config.LuaDeadline); either way the caller is answered
// code 504.
package serveconfig
