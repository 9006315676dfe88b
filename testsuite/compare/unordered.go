package compare

// unorderedList compares two lists regardless of order. It pairs as many
// expected elements as it can with equal actual ones (a maximum matching,
// so one loosely written expected element cannot take the only partner of
// another), then compares the unpaired ones in order, so that each
// difference is reported against the expected element it most likely
// concerns.
func (d *differ) unorderedList(expected, actual []any) {
	equal := make([][]bool, len(expected))
	for i, e := range expected {
		equal[i] = make([]bool, len(actual))
		for j, a := range actual {
			equal[i][j] = Equal(e, a)
		}
	}
	partner := maxMatching(equal, len(actual))

	taken := make([]bool, len(actual))
	for _, j := range partner {
		if j >= 0 {
			taken[j] = true
		}
	}
	var spare []int
	for j := range actual {
		if !taken[j] {
			spare = append(spare, j)
		}
	}
	for i, e := range expected {
		j := partner[i]
		if j < 0 && len(spare) > 0 {
			j, spare = spare[0], spare[1:]
		}
		if j < 0 {
			d.at(i, func() { d.element(e, true, nil, false) })
			continue
		}
		d.at(i, func() { d.value(e, actual[j]) })
	}
	for k, j := range spare {
		d.at(len(expected)+k, func() { d.add(Unexpected, nil, actual[j]) })
	}
}

// maxMatching pairs rows with columns where equal holds, as many as
// possible (Kuhn's augmenting paths), and returns each row's column or -1.
func maxMatching(equal [][]bool, columns int) []int {
	rowOf := make([]int, columns)
	for j := range rowOf {
		rowOf[j] = -1
	}
	var augment func(i int, seen []bool) bool
	augment = func(i int, seen []bool) bool {
		for j, ok := range equal[i] {
			if !ok || seen[j] {
				continue
			}
			seen[j] = true
			if rowOf[j] < 0 || augment(rowOf[j], seen) {
				rowOf[j] = i
				return true
			}
		}
		return false
	}
	for i := range equal {
		augment(i, make([]bool, columns))
	}
	partner := make([]int, len(equal))
	for i := range partner {
		partner[i] = -1
	}
	for j, i := range rowOf {
		if i >= 0 {
			partner[i] = j
		}
	}
	return partner
}
