// Package readme holds the library section of the repository's README as
// a compiled Example, and a test that keeps the two in step: the README's
// Go snippets must compile, together and in order, against the API they
// describe.
package readme
