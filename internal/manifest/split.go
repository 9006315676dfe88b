package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// Document is one document of a file.
type Document struct {
	Source        // File, the line its text starts on, and its number
	Data   []byte // its text, YAML or JSON, without the "---" line
	json   bool   // Data is one JSON value
}

// Split cuts a file into its documents: the values of a JSON stream when
// the file is one, else the YAML documents between "---" lines (a line
// "---", or "---" and a space or tab and a comment). Documents holding
// only blank lines and comments are left out and not counted.
func Split(f File) []Document {
	if docs, ok := splitJSON(f); ok {
		return docs
	}
	var docs []Document
	start, startLine, line := 0, 1, 1
	flush := func(end int) {
		if text := f.Data[start:end]; hasContent(text) {
			docs = append(docs, Document{Source: Source{File: f.Name, Line: startLine, Document: len(docs) + 1}, Data: text})
		}
	}
	for pos := 0; pos < len(f.Data); line++ {
		next := len(f.Data)
		if end := bytes.IndexByte(f.Data[pos:], '\n'); end >= 0 {
			next = pos + end + 1
		}
		if isSeparator(bytes.TrimRight(f.Data[pos:next], "\r\n")) {
			flush(pos)
			start, startLine = next, line+1
		}
		pos = next
	}
	flush(len(f.Data))
	return docs
}

// splitJSON returns the values of a file that is a stream of JSON
// objects or arrays; false when it is not one.
func splitJSON(f File) ([]Document, bool) {
	trimmed := bytes.TrimLeft(f.Data, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' && trimmed[0] != '[' {
		return nil, false
	}
	var docs []Document
	dec := json.NewDecoder(bytes.NewReader(f.Data))
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return docs, true
		}
		if err != nil {
			return nil, false // YAML that looks like JSON, or broken JSON: the YAML parser says where
		}
		end := int(dec.InputOffset())
		line := 1 + bytes.Count(f.Data[:end-len(raw)], []byte("\n"))
		docs = append(docs, Document{Source: Source{File: f.Name, Line: line, Document: len(docs) + 1}, Data: raw, json: true})
	}
}

func isSeparator(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte("---"))
	return ok && (len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t')
}

func hasContent(text []byte) bool {
	for line := range bytes.Lines(text) {
		line = bytes.TrimSpace(line)
		if len(line) > 0 && line[0] != '#' {
			return true
		}
	}
	return false
}
