package duffel

// Split tickets.
//
// Duffel sells split-ticket trips ("Selling split-ticket itineraries" in its
// guides): a multi-slice search with include_split_ticket=true and
// view=itineraries returns, next to the usual single_ticket offers, one-way
// offers of type split_ticket for each slice. Each split_ticket offer is an
// independent offer, priced and booked on its own through the usual
// endpoints; a trip takes one per slice and ends up as one order per slice.
// Duffel enables the feature per account on request, so Config.SplitTickets
// is off by default.
//
// Voyage models such a trip as one offer whose Ref joins the parts' offer
// ids ("off_A+off_B"). Price re-reads every part; Book creates one order
// per part (and cancels the first if a later one fails); the Booking's Ref
// joins the order ids and its PNR the airlines' references ("PNR1/PNR2").
// Ticket, Cancel, Void, RefundQuote and Refund act on every order; changing
// a split-ticket booking is not supported (each ticket would change on its
// own, with no protection of the connection between them).
//
// Search takes only the cheapest split_ticket offer of each slice and
// reads those offers in full with GET /air/offers/{id}; richer
// combinations are the shopping engine's business (virtual interlining).
// Only the identifiers and prices of the itineraries view are read.

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/voyage/voyage/pkg/supplier"
)

// wireItineraries is the part of the itineraries view we read.
type wireItineraries struct {
	Slices []struct {
		Itineraries []struct {
			Brands []struct {
				Offers []struct {
					ID            string `json:"id"`
					Type          string `json:"type"` // single_ticket, split_ticket
					TotalAmount   string `json:"total_amount"`
					TotalCurrency string `json:"total_currency"`
				} `json:"offers"`
			} `json:"brands"`
		} `json:"itineraries"`
	} `json:"slices"`
}

// searchSplit returns the cheapest split-ticket combination for a search,
// or nil when Duffel has none for some slice.
func (c *Client) searchSplit(ctx context.Context, body wireOfferRequestBody, req supplier.SearchRequest) (*supplier.Offer, error) {
	body.IncludeSplitTicket = true
	q := url.Values{
		"return_offers":    {"true"},
		"view":             {"itineraries"},
		"supplier_timeout": {strconv.FormatInt(c.supplierTimeout(ctx), 10)},
	}
	var view wireItineraries
	if err := c.do(ctx, call{method: http.MethodPost, path: "/air/offer_requests", query: q, body: body, idempotent: true, out: &view}); err != nil {
		return nil, err
	}
	if len(view.Slices) != len(req.Journeys) {
		return nil, nil
	}
	var ids []string
	currency := ""
	for _, sl := range view.Slices {
		best, bestAmount := "", int64(0)
		for _, it := range sl.Itineraries {
			for _, br := range it.Brands {
				for _, o := range br.Offers {
					if o.Type != "split_ticket" || (currency != "" && o.TotalCurrency != currency) {
						continue
					}
					amount, err := parseAmount(o.TotalAmount, o.TotalCurrency)
					if err != nil {
						continue
					}
					if best == "" || amount < bestAmount {
						best, bestAmount = o.ID, amount
						currency = o.TotalCurrency
					}
				}
			}
		}
		if best == "" {
			return nil, nil
		}
		ids = append(ids, best)
	}
	parts, err := c.getOffers(ctx, strings.Join(ids, refSep))
	if err != nil {
		return nil, err
	}
	off, err := mapOffer(parts)
	if err != nil {
		return nil, err
	}
	return &off, nil
}
