// Package readme holds the library section of the repository's README as
// a compiled Example, and a test that keeps the two in step: the README's
// Go snippets must compile, together and in order, against the API they
// describe. It sits with the examples, above every package it uses, and
// not in internal/, whose packages use none of the project's higher
// floors.
package readme
