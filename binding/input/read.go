package input

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"
)

// Source is where a document was read.
type Source struct {
	File     string
	Line     int // the line the document starts at, from 1
	Document int // the document's number in the file, from 1
}

func (s Source) String() string { return fmt.Sprintf("%s:%d: document %d", s.File, s.Line, s.Document) }

// Document is one object read from a file.
type Document struct {
	Source Source
	Object map[string]any
}

// Error is the failure to read or decode one document.
type Error struct {
	Source Source
	Object string // "Kind namespace/name", when known
	Err    error
}

func (e *Error) Error() string {
	where := e.Source.String()
	if e.Object != "" {
		where += " (" + e.Object + ")"
	}
	return where + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Reader reads documents from paths; "-" reads Stdin, at most once.
type Reader struct {
	Stdin     io.Reader
	stdinRead bool
}

// Read returns the documents of every path, in order.
func (r *Reader) Read(paths ...string) ([]Document, error) {
	var docs []Document
	for _, path := range paths {
		files, err := r.files(path)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			read, err := Parse(f.name, f.data)
			if err != nil {
				return nil, err
			}
			docs = append(docs, read...)
		}
	}
	return docs, nil
}

type file struct {
	name string
	data []byte
}

func (r *Reader) files(path string) ([]file, error) {
	if path == "-" {
		if r.stdinRead || r.Stdin == nil {
			return nil, errors.New("read -: standard input can be given only once")
		}
		r.stdinRead = true
		data, err := io.ReadAll(r.Stdin)
		if err != nil {
			return nil, fmt.Errorf("read standard input: %w", err)
		}
		return []file{{"<stdin>", data}}, nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		data, err := os.ReadFile(path)
		return []file{{path, data}}, err
	}
	var files []file
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != path && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !hasManifestExt(p) {
			return nil
		}
		data, err := os.ReadFile(p)
		files = append(files, file{p, data})
		return err
	})
	return files, err
}

func hasManifestExt(p string) bool {
	switch filepath.Ext(p) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// Parse reads the documents of one file's content; name is the file's
// name in errors.
func Parse(name string, data []byte) ([]Document, error) {
	var docs []Document
	for _, chunk := range split(data) {
		src := Source{File: name, Line: chunk.line, Document: len(docs) + 1}
		if chunk.err != nil {
			return nil, &Error{Source: src, Err: chunk.err}
		}
		var obj any
		if err := utiljson.Unmarshal(chunk.json, &obj); err != nil {
			return nil, &Error{Source: src, Err: err}
		}
		if obj == nil {
			continue
		}
		m, ok := obj.(map[string]any)
		if !ok {
			return nil, &Error{Source: src, Err: fmt.Errorf("want an object, got %s", chunk.json[:min(len(chunk.json), 40)])}
		}
		docs = append(docs, expandList(src, m)...)
	}
	return docs, nil
}

// expandList returns a List's items as documents, or the object itself.
func expandList(src Source, m map[string]any) []Document {
	items, isList := m["items"].([]any)
	if kind, _ := m["kind"].(string); !isList || !strings.HasSuffix(kind, "List") {
		return []Document{{Source: src, Object: m}}
	}
	var docs []Document
	for _, item := range items {
		if obj, ok := item.(map[string]any); ok {
			docs = append(docs, Document{Source: src, Object: obj})
		}
	}
	return docs
}

// chunk is one document of a file, as JSON.
type chunk struct {
	line int
	json []byte
	err  error
}

// split cuts a file into documents: a stream of JSON values when it starts
// with "{", else YAML documents separated by "---" lines.
func split(data []byte) []chunk {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if bytes.HasPrefix(trimmed, []byte("{")) {
		return splitJSON(data)
	}
	var chunks []chunk
	var doc bytes.Buffer
	start, line := 1, 0
	flush := func() {
		j, err := yaml.YAMLToJSON(doc.Bytes())
		if err != nil {
			j = []byte("{}")
		}
		chunks = append(chunks, chunk{line: start, json: j, err: err})
		doc.Reset()
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for sc.Scan() {
		line++
		text := sc.Text()
		if text == "---" || strings.HasPrefix(text, "--- ") {
			flush()
			start = line + 1
			continue
		}
		doc.WriteString(text)
		doc.WriteByte('\n')
	}
	flush()
	return chunks
}

func splitJSON(data []byte) []chunk {
	var chunks []chunk
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		offset := dec.InputOffset()
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			return chunks
		}
		line := 1 + bytes.Count(data[:offset], []byte("\n"))
		if err != nil {
			return append(chunks, chunk{line: line, json: []byte("{}"), err: err})
		}
		chunks = append(chunks, chunk{line: line + countLeadingNewlines(data[offset:]), json: raw})
	}
}

func countLeadingNewlines(b []byte) int {
	return bytes.Count(b[:len(b)-len(bytes.TrimLeft(b, " \t\r\n"))], []byte("\n"))
}
