package shopping

// binaryHeap is a binary heap whose top is the element before every other
// (T's before). It moves its elements as container/heap does, so elements
// that tie come off it in the same order; container/heap would box each
// element in an interface, an allocation for every push.
type binaryHeap[T interface{ before(T) bool }] []T

func (h *binaryHeap[T]) push(x T) {
	*h = append(*h, x)
	s := *h
	for j := len(s) - 1; ; {
		i := (j - 1) / 2
		if i == j || !s[j].before(s[i]) {
			break
		}
		s[i], s[j] = s[j], s[i]
		j = i
	}
}

// pop removes the top and returns it.
func (h *binaryHeap[T]) pop() T {
	s := *h
	n := len(s) - 1
	s[0], s[n] = s[n], s[0]
	for i := 0; ; {
		j := 2*i + 1
		if j >= n {
			break
		}
		if j2 := j + 1; j2 < n && s[j2].before(s[j]) {
			j = j2
		}
		if !s[j].before(s[i]) {
			break
		}
		s[i], s[j] = s[j], s[i]
		i = j
	}
	*h = s[:n]
	return s[n]
}
