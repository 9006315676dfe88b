// Package manifest reads Kubernetes manifests the way every luainterp
// command and loader takes them: from files, directories and standard
// input, as YAML or JSON documents, with Lists unwrapped, and locates
// every document and every problem as "file:line: document N".
//
// # Reading
//
// A Reader turns paths into Files. A path is a file, a directory (every
// *.yaml, *.yml and *.json file below it, in lexical order, hidden entries
// skipped; a directory without any is an error), an http:// or https://
// URL, whose body is fetched (status 200 only, at most MaxURLBytes), or "-"
// for standard input, which a Reader reads once. A file named twice, or through a directory
// and by name, is read once. Problems with one path do not stop the
// others: the error is an ErrorList with one *Error per path.
//
// # Documents
//
// Split cuts a file into Documents: a stream of JSON values when the file
// is one (it starts with "{" or "[" and every value parses), else YAML
// documents separated by "---" lines. Documents holding only blank lines
// and comments are left out and not counted. A Document's Source is its
// file, the line its text starts on and its number.
//
// Document.JSON converts a document to JSON, strictly (a key given twice
// is an error); Document.Objects decodes it into Kubernetes objects, with
// integers as int64 as from an API server: none for a null document, the
// items of a List (a kind ending in "List" with an items field), each
// with its Item number, or the object itself. YAML errors are located at
// the line of the file they are on:
//
//	hooks.yaml:14: document 2: invalid YAML: did not find expected ',' or ']'
//
// One checks that a file held exactly one document or object.
package manifest
