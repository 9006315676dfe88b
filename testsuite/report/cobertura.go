package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"time"
)

// The Cobertura XML format, as CI tools read it (Jenkins, GitLab, Azure).
type (
	coberturaCoverage struct {
		XMLName         xml.Name           `xml:"coverage"`
		LineRate        string             `xml:"line-rate,attr"`
		BranchRate      string             `xml:"branch-rate,attr"`
		LinesCovered    int                `xml:"lines-covered,attr"`
		LinesValid      int                `xml:"lines-valid,attr"`
		BranchesCovered int                `xml:"branches-covered,attr"`
		BranchesValid   int                `xml:"branches-valid,attr"`
		Complexity      string             `xml:"complexity,attr"`
		Version         string             `xml:"version,attr"`
		Timestamp       int64              `xml:"timestamp,attr"`
		Sources         []string           `xml:"sources>source"`
		Packages        []coberturaPackage `xml:"packages>package"`
	}
	coberturaPackage struct {
		Name       string           `xml:"name,attr"`
		LineRate   string           `xml:"line-rate,attr"`
		BranchRate string           `xml:"branch-rate,attr"`
		Complexity string           `xml:"complexity,attr"`
		Classes    []coberturaClass `xml:"classes>class"`
	}
	coberturaClass struct {
		Name       string          `xml:"name,attr"`
		Filename   string          `xml:"filename,attr"`
		LineRate   string          `xml:"line-rate,attr"`
		BranchRate string          `xml:"branch-rate,attr"`
		Complexity string          `xml:"complexity,attr"`
		Methods    struct{}        `xml:"methods"`
		Lines      []coberturaLine `xml:"lines>line"`
	}
	coberturaLine struct {
		Number            int    `xml:"number,attr"`
		Hits              int    `xml:"hits,attr"`
		Branch            bool   `xml:"branch,attr"`
		ConditionCoverage string `xml:"condition-coverage,attr,omitempty"`
	}
)

// rate is a share as Cobertura writes it; 1 when there is nothing to cover.
func rate(covered, valid int) string {
	if valid == 0 {
		covered, valid = 1, 1
	}
	return strconv.FormatFloat(float64(covered)/float64(valid), 'f', 4, 64)
}

// WriteCobertura writes the coverage as Cobertura XML: a package per
// suite, a class per script (customization and key), lines numbered as
// in the customization file, branches of if statements as conditions.
func WriteCobertura(w io.Writer, scripts []*ScriptCoverage, now time.Time) error {
	doc := coberturaCoverage{Complexity: "0", Version: "luainterp", Timestamp: now.Unix(), Sources: []string{"."}}
	packages := map[string]int{}
	type counts struct{ lines, linesRan, branches, branchesRan int }
	perPackage := map[string]*counts{}
	for _, s := range scripts {
		i, ok := packages[s.Suite]
		if !ok {
			i = len(doc.Packages)
			packages[s.Suite] = i
			doc.Packages = append(doc.Packages, coberturaPackage{Name: s.Suite, Complexity: "0"})
			perPackage[s.Suite] = &counts{}
		}
		class := coberturaClass{Name: s.Customization + "/" + s.Operation.CustomizationKey(), Filename: s.File, Complexity: "0"}
		for _, f := range byFile([]*ScriptCoverage{s}) {
			for _, line := range f.lines {
				l := coberturaLine{Number: line, Hits: f.hits[line]}
				taken, total := 0, 0
				for _, b := range f.branches {
					if b.line == line {
						total++
						if b.hits > 0 {
							taken++
						}
					}
				}
				if total > 0 {
					l.Branch = true
					l.ConditionCoverage = fmt.Sprintf("%d%% (%d/%d)", 100*taken/total, taken, total)
				}
				class.Lines = append(class.Lines, l)
			}
		}
		ran, total := s.Covered()
		bran, btotal := s.BranchesCovered()
		class.LineRate, class.BranchRate = rate(ran, total), rate(bran, btotal)
		c := perPackage[s.Suite]
		c.lines, c.linesRan, c.branches, c.branchesRan = c.lines+total, c.linesRan+ran, c.branches+btotal, c.branchesRan+bran
		doc.Packages[i].Classes = append(doc.Packages[i].Classes, class)
		doc.LinesValid, doc.LinesCovered = doc.LinesValid+total, doc.LinesCovered+ran
		doc.BranchesValid, doc.BranchesCovered = doc.BranchesValid+btotal, doc.BranchesCovered+bran
	}
	for i := range doc.Packages {
		c := perPackage[doc.Packages[i].Name]
		doc.Packages[i].LineRate, doc.Packages[i].BranchRate = rate(c.linesRan, c.lines), rate(c.branchesRan, c.branches)
	}
	doc.LineRate, doc.BranchRate = rate(doc.LinesCovered, doc.LinesValid), rate(doc.BranchesCovered, doc.BranchesValid)
	if _, err := io.WriteString(w, xml.Header+`<!DOCTYPE coverage SYSTEM "http://cobertura.sourceforge.net/xml/coverage-04.dtd">`+"\n"); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// TotalPercent is the share of the executable lines of every script that
// ran (branch-aware, see ScriptCoverage.Covered); 100 when there are none.
func TotalPercent(scripts []*ScriptCoverage) float64 {
	ran, total := 0, 0
	for _, s := range scripts {
		r, t := s.Covered()
		ran, total = ran+r, total+t
	}
	if total == 0 {
		return 100
	}
	return 100 * float64(ran) / float64(total)
}
