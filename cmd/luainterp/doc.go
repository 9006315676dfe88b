// Command luainterp runs, checks and tests resource interpreter hooks, and
// turns resource templates into Karmada Works.
//
// # Subcommands
//
//	interpret  run one operation on an object and print its results, as
//	           karmadactl interpret does; --check validates customizations
//	           without running anything, --show-doc says what each rule's
//	           function receives and returns
//	init       start a customization: a suite folder with a script for every
//	           key and a passing case per rule, from a CRD's schema if given
//	propagate  run Karmada's binding step: from a template, its binding, the
//	           clusters and the override policies, write the Works
//	test       run customization test suites offline, in Karmada's format,
//	           with text, JSON or JUnit reports and script coverage
//	layers     say which layer answers each operation for a kind: the first
//	           thing to check when a customization "does nothing"
//	serve      serve the layers as a Karmada resource interpreter webhook,
//	           reloading customizations and asking other webhooks if told to
//	version    print the version, commit and Go version; also --version
//	completion print a shell completion script (operations, -o formats, kinds)
//
// # Layers
//
// interpret, propagate, layers and serve answer from the same registry
// (newRegistry in registry.go): the built-in Go handlers, the bundled Lua
// scripts above them, and the ResourceInterpreterCustomizations of -f on
// top, on one Lua engine whose print output goes to standard error; serve
// adds the webhooks of --webhook-config below the customizations. test runs
// each suite against its own customizations alone.
//
// # Files
//
// Every flag that names files takes files, directories of *.yaml, *.yml
// and *.json files, http:// or https:// URLs, or "-" for standard input,
// which one flag at most may take; documents are read as package internal/manifest reads them, and
// errors name the file, line and document. A command that fails exits 1,
// with its error ("error: ...") or its report on standard error.
package main
