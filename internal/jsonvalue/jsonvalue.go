package jsonvalue

import (
	"encoding/json"
	"fmt"
)

// The names of the JSON types, with their article.
const (
	Object  = "an object"
	List    = "a list"
	String  = "a string"
	Number  = "a number"
	Boolean = "a boolean"
	Null    = "null"
)

// Describe names the JSON type of v; a Go type JSON has no name for is
// "a Go T".
func Describe(v any) string {
	switch v.(type) {
	case nil:
		return Null
	case map[string]any:
		return Object
	case []any:
		return List
	case string:
		return String
	case bool:
		return Boolean
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64, json.Number:
		return Number
	}
	return fmt.Sprintf("a Go %T", v)
}
