package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
)

// fileLines are the coverage of the scripts of one file, by file line.
type fileLines struct {
	file     string
	lines    []int       // executable file lines, sorted
	hits     map[int]int // file line → hits (branch-aware, see Covered)
	branches []fileBranch
}

type fileBranch struct {
	line, block, index, hits int
}

// byFile groups the scripts by the file they are in, with their lines
// moved to where they are in the file (a script's line 1 is its Line;
// scripts whose line is unknown keep their own numbers), in file order.
func byFile(scripts []*ScriptCoverage) []*fileLines {
	var files []*fileLines
	index := map[string]*fileLines{}
	for _, s := range scripts {
		f := index[s.File]
		if f == nil {
			f = &fileLines{file: s.File, hits: map[int]int{}}
			index[s.File] = f
			files = append(files, f)
		}
		offset := max(s.Line-1, 0)
		for line, n := range s.Hits {
			if !s.lineRan(line) {
				n = 0
			}
			at := line + offset
			if _, seen := f.hits[at]; !seen {
				f.lines = append(f.lines, at)
			}
			f.hits[at] += n
		}
		for _, b := range s.Branches {
			f.branches = append(f.branches, fileBranch{line: b.Line + offset, block: b.Block, index: b.Index, hits: b.Hits})
		}
	}
	for _, f := range files {
		slices.Sort(f.lines)
		slices.SortStableFunc(f.branches, func(a, b fileBranch) int { return a.line - b.line })
	}
	return files
}

// WriteLCOV writes the coverage in the lcov tracefile format that CI
// coverage tools read (genhtml, Codecov, Coveralls, GitLab): one record per
// file holding scripts, lines numbered as in the file, with DA lines for
// the executable lines and BRDA lines for the branches of if statements.
func WriteLCOV(w io.Writer, scripts []*ScriptCoverage) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "TN:luainterp")
	for _, f := range byFile(scripts) {
		fmt.Fprintf(bw, "SF:%s\n", f.file)
		ran := 0
		for _, line := range f.lines {
			fmt.Fprintf(bw, "DA:%d,%d\n", line, f.hits[line])
			if f.hits[line] > 0 {
				ran++
			}
		}
		taken := 0
		for _, b := range f.branches {
			fmt.Fprintf(bw, "BRDA:%d,%d,%d,%d\n", b.line, b.block, b.index, b.hits)
			if b.hits > 0 {
				taken++
			}
		}
		fmt.Fprintf(bw, "BRF:%d\nBRH:%d\n", len(f.branches), taken)
		fmt.Fprintf(bw, "LF:%d\nLH:%d\n", len(f.lines), ran)
		fmt.Fprintln(bw, "end_of_record")
	}
	return bw.Flush()
}
