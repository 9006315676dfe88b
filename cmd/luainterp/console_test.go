package main

import (
	"regexp"
	"strings"
)

// consoleCommand is one `$ ` line of a README console block (continuation
// lines joined) and the output the README shows under it.
type consoleCommand struct {
	line   int // of the README, where the command starts
	cmd    string
	output []string
}

// consoleBlocks reads the ```console blocks of a Markdown text.
func consoleBlocks(text string) [][]consoleCommand {
	var blocks [][]consoleCommand
	var block []consoleCommand
	in, continued := false, false
	for i, line := range strings.Split(text, "\n") {
		switch {
		case !in && line == "```console":
			in, block = true, nil
		case in && line == "```":
			in = false
			blocks = append(blocks, block)
		case in && continued:
			c := &block[len(block)-1]
			c.cmd += " " + strings.TrimSpace(strings.TrimSuffix(line, "\\"))
			continued = strings.HasSuffix(line, "\\")
		case in && strings.HasPrefix(line, "$ "):
			block = append(block, consoleCommand{line: i + 1, cmd: strings.TrimSuffix(line[2:], "\\")})
			continued = strings.HasSuffix(line, "\\")
		case in && len(block) > 0:
			c := &block[len(block)-1]
			c.output = append(c.output, strings.TrimRight(line, " "))
		}
	}
	return blocks
}

var timing = regexp.MustCompile(`\(\d+\.\d+s\)`)

// matchOutput says whether got is what the README shows: line by line, a
// line "..." standing for any number of lines, and test timings ignored.
func matchOutput(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		for i := 0; i <= len(got); i++ {
			if matchOutput(want[1:], got[i:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && timing.ReplaceAllString(want[0], "(0.00s)") == timing.ReplaceAllString(got[0], "(0.00s)") &&
		matchOutput(want[1:], got[1:])
}
