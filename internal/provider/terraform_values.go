package provider

import (
	"fmt"
	"math/big"
	"reflect"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// terraformValueOf converts a plain Go model (strings, bools, integers, pointers for nullable
// values, *big.Float for numbers, slices for lists, string-keyed maps, structs with `tfsdk` tags)
// into a Terraform value of type t. Unlike the framework's reflection it shares t's types among all values instead of
// building a type per value, which for thousands of versions is most of the memory. A nil pointer,
// slice or map is null; an empty slice or map is empty.
func terraformValueOf(v reflect.Value, t tftypes.Type) (tftypes.Value, error) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map:
		if v.IsNil() {
			return tftypes.NewValue(t, nil), nil
		}
	}
	if v.Type() == bigFloatType {
		return tftypes.NewValue(t, v.Interface()), nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		return terraformValueOf(v.Elem(), t)
	case reflect.String:
		return tftypes.NewValue(t, v.String()), nil
	case reflect.Bool:
		return tftypes.NewValue(t, v.Bool()), nil
	case reflect.Int, reflect.Int32, reflect.Int64:
		return tftypes.NewValue(t, new(big.Float).SetInt64(v.Int())), nil
	case reflect.Slice:
		return terraformListOf(v, t)
	case reflect.Map:
		return terraformMapOf(v, t)
	case reflect.Struct:
		return terraformObjectOf(v, t)
	}
	return tftypes.Value{}, fmt.Errorf("cannot convert a %s into %s", v.Type(), t)
}

var bigFloatType = reflect.TypeFor[*big.Float]()

func terraformListOf(v reflect.Value, t tftypes.Type) (tftypes.Value, error) {
	list, ok := t.(tftypes.List)
	if !ok {
		return tftypes.Value{}, fmt.Errorf("cannot convert a %s into %s", v.Type(), t)
	}
	elements := make([]tftypes.Value, v.Len())
	for i := range elements {
		e, err := terraformValueOf(v.Index(i), list.ElementType)
		if err != nil {
			return tftypes.Value{}, err
		}
		elements[i] = e
	}
	return tftypes.NewValue(t, elements), nil
}

func terraformMapOf(v reflect.Value, t tftypes.Type) (tftypes.Value, error) {
	m, ok := t.(tftypes.Map)
	if !ok || v.Type().Key().Kind() != reflect.String {
		return tftypes.Value{}, fmt.Errorf("cannot convert a %s into %s", v.Type(), t)
	}
	elements := make(map[string]tftypes.Value, v.Len())
	for it := v.MapRange(); it.Next(); {
		e, err := terraformValueOf(it.Value(), m.ElementType)
		if err != nil {
			return tftypes.Value{}, err
		}
		elements[it.Key().String()] = e
	}
	return tftypes.NewValue(t, elements), nil
}

func terraformObjectOf(v reflect.Value, t tftypes.Type) (tftypes.Value, error) {
	obj, ok := t.(tftypes.Object)
	if !ok {
		return tftypes.Value{}, fmt.Errorf("cannot convert a %s into %s", v.Type(), t)
	}
	attrs := make(map[string]tftypes.Value, len(obj.AttributeTypes))
	for i := 0; i < v.NumField(); i++ {
		name := v.Type().Field(i).Tag.Get("tfsdk")
		at, ok := obj.AttributeTypes[name]
		if !ok {
			return tftypes.Value{}, fmt.Errorf("%s has no attribute %q for field %s", t, name, v.Type().Field(i).Name)
		}
		a, err := terraformValueOf(v.Field(i), at)
		if err != nil {
			return tftypes.Value{}, err
		}
		attrs[name] = a
	}
	if len(attrs) != len(obj.AttributeTypes) {
		return tftypes.Value{}, fmt.Errorf("%s does not set every attribute of %s", v.Type(), t)
	}
	return tftypes.NewValue(t, attrs), nil
}
