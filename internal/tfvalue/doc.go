// Package tfvalue holds generic helpers for terraform-plugin-go values and the framework's
// resource schemas: a value at a path of attribute names, its replacement there, an equality that
// allocates nothing, the count of a value's elements, and rebuilding walks over attributes and elements.
package tfvalue
