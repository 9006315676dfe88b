// Package quantity parses Kubernetes quantities on behalf of objects and
// scripts with bounds on their size, so that no quantity costs more than
// microseconds to read.
//
// resource.ParseQuantity does arbitrary-precision arithmetic on the
// mantissa scaled by the exponent, so its cost grows with both: an
// ordinary-looking request of "1e-1000000000" takes minutes. Every quantity
// luainterp reads from an object, a script or a test case goes through
// Parse (or, before a typed decode, CheckFields), which refuses, before
// parsing, a quantity with
//
//   - more than MaxDigits digits in its mantissa, or
//   - a decimal exponent ("1e9", "5E-3") outside ±MaxExponent.
//
// The bounds keep every quantity Kubernetes users write: the suffixes go
// from n (1e-9) to E (1e18) and Ei (2^60), resource.Quantity itself keeps
// at most 63 bits of value and nano precision, so a real quantity never
// needs a 30th power of ten, let alone 64 digits.
package quantity
