package luavm

import (
	"strings"

	"github.com/yuin/gopher-lua/parse"
)

// opener is a keyword that opens a block, on its line.
type opener struct {
	word   string
	line   int
	indent int
}

// unclosedBlock guesses which block of a script that ended before its
// blocks did lacks its `end` (or `until`): gopher-lua only says the
// script ended. It scans the tokens, matching each `end` with the block it
// closes, and returns the first block whose `end` is indented less than
// the block's own line, which most likely took the `end` of the block
// around it; else the innermost block left open. ok is false when every
// block is closed or the script does not scan.
func unclosedBlock(source string) (o opener, ok bool) {
	indents := lineIndents(source)
	indentOf := func(line int) int {
		if line >= 1 && line <= len(indents) {
			return indents[line-1]
		}
		return 0
	}
	sc := parse.NewScanner(strings.NewReader(source), chunkName)
	var (
		open      []opener
		loopDo    int // `do`s that belong to a while or for already open
		misfit    opener
		hasMisfit bool
	)
	for {
		tok, err := sc.Scan(&parse.Lexer{})
		if err != nil {
			return opener{}, false
		}
		if tok.Type < 0 {
			break
		}
		line := tok.Pos.Line
		switch tok.Type {
		case parse.TFunction, parse.TIf, parse.TRepeat:
			open = append(open, opener{tok.Str, line, indentOf(line)})
		case parse.TWhile, parse.TFor:
			open = append(open, opener{tok.Str, line, indentOf(line)})
			loopDo++
		case parse.TDo:
			if loopDo > 0 {
				loopDo--
				continue
			}
			open = append(open, opener{tok.Str, line, indentOf(line)})
		case parse.TEnd, parse.TUntil:
			if len(open) == 0 {
				continue
			}
			closed := open[len(open)-1]
			open = open[:len(open)-1]
			if !hasMisfit && indentOf(line) < closed.indent {
				misfit, hasMisfit = closed, true
			}
		}
	}
	switch {
	case len(open) == 0:
		return opener{}, false
	case hasMisfit:
		return misfit, true
	}
	return open[len(open)-1], true
}

// lineIndents returns the width of each line's leading blanks, a tab
// counting as one.
func lineIndents(source string) []int {
	var indents []int
	for l := range strings.Lines(source) {
		indents = append(indents, len(l)-len(strings.TrimLeft(l, " \t")))
	}
	return indents
}
