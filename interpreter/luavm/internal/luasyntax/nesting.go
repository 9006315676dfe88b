package luasyntax

import (
	"fmt"
	"strings"
)

// maxNesting bounds how deeply a script may nest brackets, as C Lua bounds
// its syntax levels: the parser and compiler recurse once per level, and a
// source of nothing but brackets would otherwise take seconds to reject.
const maxNesting = 200

// NestingError is the error of a source whose brackets nest too deeply.
type NestingError struct{ Line int }

func (e *NestingError) Error() string {
	return fmt.Sprintf("syntax error: brackets nest deeper than %d levels", maxNesting)
}

// CheckNesting scans source for brackets, skipping strings and comments,
// and fails at the first that opens a level past maxNesting (see the
// package doc for why).
func CheckNesting(source string) error {
	depth, line := 0, 1
	for i := 0; i < len(source); i++ {
		switch c := source[i]; c {
		case '\n':
			line++
		case '(', '{':
			depth++
		case '[':
			if n := longBracket(source[i:]); n > 0 {
				i += skipLong(source, i, n, &line)
				continue
			}
			depth++
		case ')', '}', ']':
			depth--
		case '"', '\'':
			i = skipQuoted(source, i, &line)
		case '-':
			if strings.HasPrefix(source[i:], "--") {
				i += 2
				if n := longBracket(source[i:]); n > 0 {
					i += skipLong(source, i, n, &line)
					continue
				}
				for i < len(source) && source[i] != '\n' {
					i++
				}
				i--
			}
		}
		if depth > maxNesting {
			return &NestingError{Line: line}
		}
	}
	return nil
}

// longBracket returns the length of the long bracket [==[ that s starts
// with, or 0.
func longBracket(s string) int {
	if !strings.HasPrefix(s, "[") {
		return 0
	}
	n := 1
	for n < len(s) && s[n] == '=' {
		n++
	}
	if n < len(s) && s[n] == '[' {
		return n + 1
	}
	return 0
}

// skipLong skips the long string or comment whose opening bracket of
// length n starts at i, and returns how far past i it ends (less one).
func skipLong(source string, i, n int, line *int) int {
	closing := "]" + strings.Repeat("=", n-2) + "]"
	body := source[i+n:]
	end := strings.Index(body, closing)
	if end < 0 {
		end = len(body)
	} else {
		end += len(closing)
	}
	*line += strings.Count(body[:min(end, len(body))], "\n")
	return n + end - 1
}

// skipQuoted returns the index of the quote that closes the string opened at i.
func skipQuoted(source string, i int, line *int) int {
	quote := source[i]
	for i++; i < len(source); i++ {
		switch source[i] {
		case '\\':
			if i+1 < len(source) && source[i+1] == '\n' {
				*line++
			}
			i++
		case quote, '\n':
			return i
		}
	}
	return i
}
