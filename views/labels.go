package views

// adminOptions is a select's options: core's list of values, in core's
// order (the list the value's check reads), each with its label.
func adminOptions[T ~string](values []T, labels map[T]string) []AdminOption {
	out := make([]AdminOption, 0, len(values))
	for _, v := range values {
		out = append(out, AdminOption{Value: string(v), Label: labelOr(labels, v)})
	}
	return out
}

// labelOr is v's label, or v itself when it has none.
func labelOr[T ~string](labels map[T]string, v T) string {
	if l, ok := labels[v]; ok {
		return l
	}
	return string(v)
}
