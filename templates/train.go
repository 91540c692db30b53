package templates

import (
	"context"
	"net/url"
	"strconv"
	"time"

	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/train"
)

// The train order pages' paths (pkg/web's route table declares them).
const (
	TrainBookingPath = "/train/booking"
	TrainOrdersPath  = "/train/orders"
	// TrainOrdersResultsID is the list's swappable part.
	TrainOrdersResultsID = "train-orders-results"
)

// TrainOrderHref is a train order's detail page.
func TrainOrderHref(id int64) string { return TrainOrdersPath + "/" + strconv.FormatInt(id, 10) }

// TrainETicketHref is the e-ticket PDF of an order in lang.
func TrainETicketHref(id int64, lang string) string {
	return TrainOrderHref(id) + "/e-ticket?lang=" + url.QueryEscape(lang)
}

// TrainBookingProps are the props of the TrainBooking island
// (islands/TrainBooking.tsx).
type TrainBookingProps struct {
	Lang string `json:"lang"`
	// Today is the first on-sale date and SaleDays how many there are
	// (China time).
	Today    string `json:"today"`
	SaleDays int    `json:"saleDays"`
}

// TrainOrderList is /train/orders: the status menu with counts, the rows
// of one page and the pager.
type TrainOrderList struct {
	Status  string
	Keyword string
	// ShowAgency: a row is another agency's (the viewer is the provider or
	// a parent agency), so the list says whose each is.
	ShowAgency bool
	Menu       []OrderMenuItem
	Items      []TrainOrderRow
	Pager      Pager
}

// TrainOrderRow is one train order of the list, names in the page's
// language.
type TrainOrderRow struct {
	BookingRow
	TrainNumber string
}

// Href is the row's detail page.
func (r TrainOrderRow) Href() string { return TrainOrderHref(r.ID) }

// TrainOrderDetail is /train/orders/{id}.
type TrainOrderDetail struct {
	Order           train.View
	OriginName      string
	DestinationName string
	Stops           []TrainStop
	Total           string
	Paid            string
	Refunded        string
	// Issued: some ticket is valid, so the e-ticket can be downloaded.
	Issued bool
	// Props of the TrainOrder island (the actions allowed now).
	Actions TrainOrderProps
}

// TrainStop is a call of the train, in China time.
type TrainStop struct {
	Name   string
	Arrive time.Time
	Depart time.Time
}

// TrainOrderProps are the props of the TrainOrder island
// (islands/TrainOrder.tsx).
type TrainOrderProps struct {
	Lang          string           `json:"lang"`
	ID            int64            `json:"id"`
	Actions       []train.Action   `json:"actions"`
	Passengers    []TrainPassenger `json:"passengers"`
	Origin        string           `json:"origin"`
	Destination   string           `json:"destination"`
	Today         string           `json:"today"`
	SaleDays      int              `json:"saleDays"`
	HoldExpiresAt *time.Time       `json:"holdExpiresAt,omitempty"`
	Quote         *train.QuoteView `json:"quote,omitempty"`
}

// TrainPassenger is a passenger as the actions name them.
type TrainPassenger struct {
	ID         int    `json:"id"`
	Name       string `json:"name"`
	Refundable bool   `json:"refundable"`
	Changeable bool   `json:"changeable"`
}

// china is the railway's clock: train times read in China Standard Time.
var china = time.FixedZone("CST", 8*3600)

// chinaStamp is a train time as the station shows it, labelled as local.
func chinaStamp(ctx context.Context, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return display.Local(ctx, t.In(china))
}

func chinaClock(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.In(china).Format("15:04")
}

func trainStatusName(ctx context.Context, s string) string {
	return catalogLabel(ctx, "trainportal.status.", s)
}

func trainTypeName(ctx context.Context, t string) string {
	if t == "" || t == "O" {
		t = "ordinary"
	}
	return catalogLabel(ctx, "trainportal.type.", t)
}

func trainDuration(min int) string {
	return pad2(min/60) + "h" + pad2(min%60) + "m"
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// trainLangs are the e-ticket's languages.
var trainLangs = []string{i18n.EN, i18n.ZhCN, i18n.ZhTW}

// displayMoney is an API amount with its currency.
func displayMoney(m train.Money) string {
	if m.Amount == "" {
		return ""
	}
	// The money display every page shares: thousands separated.
	return money.GroupDecimal(m.Amount) + " " + m.Currency
}
