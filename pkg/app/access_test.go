package app_test

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/group/grouptest"
	"github.com/voyage/voyage/pkg/train"
)

// outcome is what a viewer meets on a booking of the booking agency.
type outcome int

const (
	// acts: sees it and takes the agency's steps on it.
	acts outcome = iota
	// sees: reads and lists it; every step on it is refused (403).
	sees
	// unseen: lists without it; reading it or a step on it is not found.
	unseen
	// refused: the line's routes refuse the viewer (403), list included.
	refused
)

func (o outcome) String() string { return [...]string{"acts", "sees", "unseen", "refused"}[o] }

// lineUnderTest drives one product line through the API for the access
// matrix: the booking agency's operator makes its bookings, each taken to
// where a step is open.
type lineUnderTest struct {
	name string
	// list and item are the list's and a booking's paths.
	list string
	item func(id int64) string
	// search and create are the search and booking routes, probed with an
	// empty body: a viewer who may book gets the body's validation error,
	// one who may not 403. (Groups have no search: the request is it.)
	search, create string
	// book makes a fresh booking as token, open to payment when payable.
	book func(t *testing.T, token, key string, payable bool) int64
	// pay, cancel and request take the step as token; request is the
	// line's change of a booking (a refund, the passenger list). pay also
	// answers the message.
	pay             func(t *testing.T, token string, id int64, key string) (int, string)
	cancel, request func(t *testing.T, token string, id int64, key string) int
	// readyForRequest takes a paid booking to where request is open.
	readyForRequest func(t *testing.T, id int64)
	// The statuses the booking agency's successful steps answer.
	payOK, cancelOK, requestOK int
	// page is the booking's portal page; acts tells from the page whether
	// it offers the viewer the agency's steps (its pay form or its
	// island's actions); cancelForm, where the portal has one, is the
	// path its cancel form posts to.
	page       func(id int64) string
	acts       func(page string, id int64) bool
	cancelForm func(id int64) string
	// listPage is the line's list in the portal.
	listPage string
}

// TestOneAccessRule is the access rule of every line (booking.Viewer),
// through the HTTP API on both engines: each line × each viewer × list,
// read, create, pay, cancel and the line's request. The booking agency is
// Demo Sub Travel; its parent is Demo Travel; Blue Sky is a sibling with
// no tie to either.
func TestOneAccessRule(t *testing.T) {
	seededWithJobs(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		sub, demo := agencyID(t, a, "Demo Sub Travel"), agencyID(t, a, "Demo Travel")
		providerID := loginAs(t, srv, "provider-admin", "provider-pass-1").UserInfo.AgencyID
		for _, id := range []int64{sub, demo, 222, providerID} {
			enableTrains(t, a, id, `{"notifyUrl":"","manual":false}`)
		}
		fund(t, a, sub, "200000.00")
		subSuper := loginAs(t, srv, "sub-super", "demo-pass-1").Token
		for _, u := range [][2]string{{"sub-operator", "operator"}, {"sub-finance", "finance"}} {
			body := fmt.Sprintf(`{"username":%q,"email":"%s@demo-sub.example","role":[%q],"password":"pass-word-1"}`, u[0], u[0], u[1])
			if resp, env := call(t, srv, "POST", "/base/v2/users", "en", body, bearer(subSuper)...); resp.StatusCode != 201 {
				t.Fatalf("add %s: %d %+v", u[0], resp.StatusCode, env)
			}
		}
		login := func(u string) string {
			if u == "provider-admin" {
				return loginAs(t, srv, u, "provider-pass-1").Token
			}
			if u == "sub-operator" || u == "sub-finance" {
				return loginAs(t, srv, u, "pass-word-1").Token
			}
			return loginAs(t, srv, u, "demo-pass-1").Token
		}
		op, provider := login("sub-operator"), login("provider-admin")

		viewers := []struct {
			name, user string
			// flights is the outcome on flights and groups, trains on trains;
			// books: the create route lets the viewer book for its own agency.
			flights, trains    outcome
			books, booksTrains bool
		}{
			{"booking agency's operator", "sub-operator", acts, acts, true, true},
			{"booking agency's SuperUser", "sub-super", acts, acts, true, true},
			// The spec lists no role for train orders: finance sees them.
			{"booking agency's finance", "sub-finance", refused, sees, false, false},
			{"parent's SuperUser", "demo-super", sees, sees, true, true},
			{"parent's finance", "demo-finance", refused, sees, false, false},
			{"sibling's SuperUser", "bluesky-super", unseen, unseen, true, true},
			{"provider", "provider-admin", sees, sees, true, true},
		}
		tokens := map[string]string{}
		for _, v := range viewers {
			tokens[v.user] = login(v.user)
		}

		for _, line := range []lineUnderTest{flightLine(a, srv, provider), trainLine(srv, provider), groupLine(srv, provider)} {
			t.Run(line.name, func(t *testing.T) {
				paid := line.book(t, op, line.name+"-paid", true)
				cancelled := line.book(t, op, line.name+"-cancelled", false)
				for _, v := range viewers {
					want, books := v.flights, v.books
					if line.name == "train" {
						want, books = v.trains, v.booksTrains
					}
					tok := tokens[v.user]
					what := fmt.Sprintf("%s (%s)", v.name, want)

					// List and read.
					resp, env := call(t, srv, "GET", line.list+"?pageSize=100", "en", "", bearer(tok)...)
					switch want {
					case refused:
						if resp.StatusCode != 403 {
							t.Errorf("%s lists: %d, want 403", what, resp.StatusCode)
						}
					default:
						if resp.StatusCode != 200 {
							t.Fatalf("%s lists: %d %+v", what, resp.StatusCode, env)
						}
						if got, wantIn := listed(t, env, paid), want != unseen; got != wantIn {
							t.Errorf("%s: the booking listed %v, want %v", what, got, wantIn)
						}
					}
					resp, _ = call(t, srv, "GET", line.item(paid), "en", "", bearer(tok)...)
					if w := map[outcome]int{acts: 200, sees: 200, unseen: 404, refused: 403}[want]; resp.StatusCode != w {
						t.Errorf("%s reads: %d, want %d", what, resp.StatusCode, w)
					}

					// Search and create, probed with an empty body.
					for _, path := range []string{line.search, line.create} {
						if path == "" {
							continue
						}
						resp, env = call(t, srv, "POST", path, "en", `{}`, append(bearer(tok), "Idempotency-Key", "probe-"+v.user)...)
						if refusedBooking := resp.StatusCode == 403; refusedBooking == books {
							t.Errorf("%s POST %s: %d %s, may book %v", what, path, resp.StatusCode, env.Data, books)
						}
					}

					// The portal's page: the steps offered to those who act,
					// to nobody else; not found for those who may not see it;
					// the guard's refusal (home, with the message) for those
					// the line refuses.
					web := portalAs(t, srv, tok)
					res, page := get(t, web, srv.URL+line.page(paid), "Accept-Language", "en")
					switch want {
					case acts, sees:
						if res.StatusCode != 200 {
							t.Errorf("%s opens the page: %d", what, res.StatusCode)
						} else if got := line.acts(page, paid); got != (want == acts) {
							t.Errorf("%s: the page offers the steps %v, want %v", what, got, want == acts)
						}
					case unseen:
						if res.StatusCode != 404 {
							t.Errorf("%s opens the page: %d, want 404", what, res.StatusCode)
						}
					}
					// The portal's list says whose a booking is to a viewer
					// above the booking agency (its parent, the provider),
					// the same on every line.
					if want == sees && !strings.HasPrefix(v.name, "booking agency") {
						if _, list := get(t, web, srv.URL+line.listPage, "Accept-Language", "en"); !strings.Contains(list, "Demo Sub Travel") {
							t.Errorf("%s: the list %s does not name the booking's agency", what, line.listPage)
						}
					}
					switch want {
					case refused:
						if res.StatusCode != http.StatusSeeOther {
							t.Errorf("%s opens the page: %d, want the guard's 303", what, res.StatusCode)
						}
					}

					// The steps: refused unless the viewer acts.
					if want == acts {
						continue
					}
					if line.cancelForm != nil {
						// The portal's cancel form changes nothing either (the
						// SuperUser's cancel below finds the booking as it was).
						postForm(t, web, srv.URL+line.cancelForm(cancelled), url.Values{"idempotencyKey": {"portal-" + v.user}},
							"Sec-Fetch-Site", "same-origin", "Origin", srv.URL)
					}
					w := map[outcome]int{sees: 403, unseen: 404, refused: 403}[want]
					got, msg := line.pay(t, tok, paid, "pay-"+v.user)
					if got != w {
						t.Errorf("%s pays: %d, want %d", what, got, w)
					}
					// One who sees the booking is told it may not act on
					// it, on every line, not that its own payments are off.
					if want == sees && msg != "You do not have the access" {
						t.Errorf("%s pays: %q, want the no-access answer", what, msg)
					}
					if got := line.cancel(t, tok, cancelled, "cancel-"+v.user); got != w {
						t.Errorf("%s cancels: %d, want %d", what, got, w)
					}
				}

				// The booking agency's own users act: its operator pays, its
				// SuperUser cancels.
				if got, _ := line.pay(t, op, paid, "pay-op"); got != line.payOK {
					t.Fatalf("the operator pays: %d, want %d", got, line.payOK)
				}
				if got := line.cancel(t, tokens["sub-super"], cancelled, "cancel-super"); got != line.cancelOK {
					t.Fatalf("the SuperUser cancels: %d, want %d", got, line.cancelOK)
				}

				// The line's request (a refund, the passenger list): only the
				// booking agency's own users.
				line.readyForRequest(t, paid)
				for _, v := range viewers {
					want := v.flights
					if line.name == "train" {
						want = v.trains
					}
					if want == acts {
						continue
					}
					w := map[outcome]int{sees: 403, unseen: 404, refused: 403}[want]
					if got := line.request(t, tokens[v.user], paid, "request-"+v.user); got != w {
						t.Errorf("%s (%s) asks: %d, want %d", v.name, want, got, w)
					}
				}
				if got := line.request(t, op, paid, "request-op"); got != line.requestOK {
					t.Errorf("the operator asks: %d, want %d", got, line.requestOK)
				}
			})
		}
	})
}

// listed reports whether a list answer holds the booking id.
func listed(t *testing.T, env envelope, id int64) bool {
	t.Helper()
	var p struct {
		Items []struct {
			ID int64 `json:"id"`
		} `json:"items"`
	}
	if err := json.Unmarshal(env.Data, &p); err != nil {
		t.Fatalf("list: %v %s", err, env.Data)
	}
	for _, it := range p.Items {
		if it.ID == id {
			return true
		}
	}
	return false
}

func status(resp *http.Response, _ envelope) int { return resp.StatusCode }

func flightLine(a *app.App, srv *httptest.Server, provider string) lineUnderTest {
	api := func(id int64) string { return fmt.Sprintf("/order/v2/flight/orders/%d", id) }
	item := func(id int64) string { return fmt.Sprintf("/flight/orders/%d", id) }
	return lineUnderTest{
		name: "flight", list: "/order/v2/flight/orders", item: api,
		search: "/shopping/v2/flight/async-shopping", create: "/order/v2/flight/orders",
		book: func(t *testing.T, token, key string, _ bool) int64 {
			q, _ := quoteFor(t, srv, token)
			return createOrder(t, srv, token, q, key).ID
		},
		pay: func(t *testing.T, token string, id int64, key string) (int, string) {
			resp, env := call(t, srv, "POST", api(id)+"/payment", "en", `{"channel":"balance"}`, append(bearer(token), "Idempotency-Key", key)...)
			return resp.StatusCode, env.Message
		},
		cancel: func(t *testing.T, token string, id int64, _ string) int {
			return status(call(t, srv, "DELETE", api(id), "en", "", bearer(token)...))
		},
		readyForRequest: func(t *testing.T, id int64) { waitStatus(t, srv, provider, id, flight.Issued) },
		request: func(t *testing.T, token string, id int64, _ string) int {
			resp, _ := multipartCall(t, srv, api(id)+"/refund", token, map[string]string{"reason": "0", "remark": "plans changed"},
				map[string][]byte{"p.png": tinyPNG})
			return resp.StatusCode
		},
		payOK: 200, cancelOK: 200, requestOK: 201,
		page: item,
		acts: func(page string, id int64) bool {
			return strings.Contains(page, fmt.Sprintf(`action="/flight/orders/%d/actions/pay"`, id))
		},
		cancelForm: func(id int64) string { return fmt.Sprintf("/flight/orders/%d/actions/cancel", id) },
		listPage:   "/flight/orders",
	}
}

func trainLine(srv *httptest.Server, provider string) lineUnderTest {
	item := func(id int64) string { return fmt.Sprintf("/order/v2/train/orders/%d", id) }
	return lineUnderTest{
		name: "train", list: "/order/v2/train/orders", item: item,
		search: "/shopping/v2/train/search", create: "/order/v2/train/orders",
		book: func(t *testing.T, token, key string, _ bool) int64 {
			offer := secondClassOffer(t, srv, token, 6, 1)
			resp, env, v := bookTrain(t, srv, token, offer.ID, onePassenger, key)
			if resp.StatusCode != 201 {
				t.Fatalf("book a train: %d %+v", resp.StatusCode, env)
			}
			return v.ID
		},
		pay: func(t *testing.T, token string, id int64, key string) (int, string) {
			resp, env, _ := payTrain(t, srv, token, id, key)
			return resp.StatusCode, env.Message
		},
		cancel: func(t *testing.T, token string, id int64, _ string) int {
			return status(call(t, srv, "DELETE", item(id), "en", "", bearer(token)...))
		},
		readyForRequest: func(t *testing.T, id int64) { waitTrain(t, srv, provider, id, train.Issued) },
		request: func(t *testing.T, token string, id int64, key string) int {
			return status(call(t, srv, "POST", item(id)+"/refund", "en", `{}`, append(bearer(token), "Idempotency-Key", key)...))
		},
		payOK: 200, cancelOK: 200, requestOK: 200,
		// The train order's steps are its island's, which calls the API.
		page: func(id int64) string { return fmt.Sprintf("/train/orders/%d", id) },
		acts: func(page string, _ int64) bool {
			return strings.Contains(html.UnescapeString(page), `"actions":["`)
		},
		listPage: "/train/orders",
	}
}

func groupLine(srv *httptest.Server, provider string) lineUnderTest {
	item := func(id int64) string { return fmt.Sprintf("%s/%d", groupsPath, id) }
	return lineUnderTest{
		name: "group", list: groupsPath, item: item, create: groupsPath,
		// A payable group is quoted, named, confirmed and granted its
		// seats; the other is a fresh request.
		book: func(t *testing.T, token, key string, payable bool) int64 {
			if payable {
				return confirmedGroup(t, srv, token, provider, key).ID
			}
			return requestGroup(t, srv, token, key).ID
		},
		pay: func(t *testing.T, token string, id int64, key string) (int, string) {
			resp, env := payGroup(t, srv, token, id, "first", key)
			return resp.StatusCode, env.Message
		},
		cancel: func(t *testing.T, token string, id int64, _ string) int {
			return status(call(t, srv, "DELETE", item(id), "en", "", bearer(token)...))
		},
		// The request of a group is its passenger list, sent to a quoted
		// request: a new one, since the paid group's list is locked.
		readyForRequest: func(t *testing.T, id int64) {},
		request: func() func(t *testing.T, token string, id int64, key string) int {
			quoted := map[int64]int64{}
			return func(t *testing.T, token string, id int64, _ string) int {
				if quoted[id] == 0 {
					op := loginAs(t, srv, "sub-operator", "pass-word-1").Token
					q := requestGroup(t, srv, op, fmt.Sprintf("quoted-for-%d", id))
					groupCall(t, srv, provider, "POST", item(q.ID)+"/quote", quoteBody(), 200)
					quoted[id] = q.ID
				}
				resp, _ := uploadList(t, srv, token, quoted[id], grouptest.Workbook(t, grouptest.Rows(10, 10)), "en")
				return resp.StatusCode
			}
		}(),
		payOK: 200, cancelOK: 200, requestOK: 200,
		page: func(id int64) string { return fmt.Sprintf("/flight/group/order/%d", id) },
		acts: func(page string, id int64) bool {
			return strings.Contains(page, fmt.Sprintf(`action="/flight/group/order/%d/payment"`, id))
		},
		cancelForm: func(id int64) string { return fmt.Sprintf("/flight/group/order/%d/cancel", id) },
		listPage:   "/flight/group/order",
	}
}
