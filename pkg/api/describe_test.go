package api

import "testing"

func TestWithoutName(t *testing.T) {
	for _, c := range []struct{ in, field, want string }{
		{"Credit is the value returned as a voucher.", "Credit", "The value returned as a voucher."},
		{"Errors are the failed attempts' errors, oldest first.", "Errors", "The failed attempts' errors, oldest first."},
		{"KeyUsed: the key was posted before.", "KeyUsed", "The key was posted before."},
		{"Ledger lists the money movements.", "Ledger", "Lists the money movements."},
		{"the 6-character PNR code when present", "RecordLocator", "the 6-character PNR code when present"},
		{"Currency is", "Currency", "Currency is"},
		{"Currencyless is a word.", "Currency", "Currencyless is a word."},
		{"CreateRequest books a verified quote (POST /order/v2/flight/orders).", "CreateRequest", "Books a verified quote (POST /order/v2/flight/orders)."},
		{"View is a flight order as the API answers it.", "View", "A flight order as the API answers it."},
	} {
		if got := withoutName(c.in, c.field); got != c.want {
			t.Errorf("withoutName(%q, %q) = %q, want %q", c.in, c.field, got, c.want)
		}
	}
}

func TestPathParamDescription(t *testing.T) {
	for _, c := range []struct{ path, name, want string }{
		{"/order/v2/flight/orders/{id}/pay", "id", "The flight order's id, as its list or booking answers it."},
		{"/order/v2/flight/group/orders/{id}", "id", "The group order's id, as its list or booking answers it."},
		{"/order/v2/train/orders/{id}/refund", "id", "The train order's id, as its list or booking answers it."},
		{"/base/v2/agencies/{id}/apikeys/{key}", "key", "The API key's prefix, as the key list shows it."},
		{"/base/v2/agencies/{id}/apikeys/{key}", "id", "The agency's id."},
		{"/base/v2/sub/statements/{agency}/{id}", "id", "The statement's id."},
		{"/base/v2/sub/statements/{agency}/{id}", "agency", "The sub-agency's id."},
		{"/base/v2/somewhere/{id}", "id", "The id of what the path names."},
	} {
		if got := pathParamDescription(c.path, c.name); got != c.want {
			t.Errorf("pathParamDescription(%q, %q) = %q, want %q", c.path, c.name, got, c.want)
		}
	}
}
