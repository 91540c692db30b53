package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/riverqueue/river"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/jobs"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/payment/airwallex"
	"github.com/voyage/voyage/pkg/payment/alipay"
	"github.com/voyage/voyage/pkg/payment/stripe"
	"github.com/voyage/voyage/pkg/payment/wechatpay"
	"github.com/voyage/voyage/pkg/payment/yeepay"
	"github.com/voyage/voyage/pkg/ratelimit"
)

// BuildChannels makes the real payment channels whose credentials are set
// (payment.alipay, wechat_pay, yeepay, airwallex, stripe), by their spec
// names: Yeepay's one merchant account is four channels. transport carries
// their calls to the providers (http.DefaultTransport when nil; the server
// gives its traced one).
func BuildChannels(c config.ChannelsConfig, transport http.RoundTripper) (map[string]payment.Channel, error) {
	out := map[string]payment.Channel{}
	add := func(ch payment.Channel, err error) error {
		if err != nil {
			return fmt.Errorf("app: payment channel: %w", err)
		}
		out[ch.Name()] = ch
		return nil
	}
	on := c.On()
	if on["alipay"] {
		ch, err := alipay.New(alipay.Config{AppID: c.Alipay.AppID, PrivateKeyPEM: c.Alipay.PrivateKey.Reveal(),
			AlipayPublicKeyPEM: c.Alipay.AlipayPublicKey, Endpoint: c.Alipay.Endpoint, Transport: transport})
		if err := add(ch, err); err != nil {
			return nil, err
		}
	}
	if on["wechat_pay"] {
		w := c.WechatPay
		ch, err := wechatpay.New(wechatpay.Config{MchID: w.MchID, AppID: w.AppID, MerchantSerialNo: w.MerchantSerialNo,
			MerchantPrivateKeyPEM: w.MerchantPrivateKey.Reveal(), APIv3Key: w.APIv3Key.Reveal(),
			PlatformPublicKeyPEM: w.PlatformPublicKey, PlatformSerial: w.PlatformSerial, Endpoint: w.Endpoint,
			HTTPClient: &http.Client{Transport: transport}})
		if err := add(ch, err); err != nil {
			return nil, err
		}
	}
	if on["yeepay"] {
		y := c.Yeepay
		cfg := yeepay.Config{AppKey: y.AppKey, ParentMerchantNo: y.ParentMerchantNo, MerchantNo: y.MerchantNo,
			PrivateKeyPEM: y.PrivateKey.Reveal(), YeepayPublicKeyPEM: y.YeepayPublicKey, Endpoint: y.Endpoint,
			HTTPClient: &http.Client{Transport: transport}}
		for _, m := range []string{payment.MethodAlipay, payment.MethodWechat, payment.MethodCreditCard, payment.MethodDebitCard} {
			ch, err := yeepay.New(cfg, m)
			if err := add(ch, err); err != nil {
				return nil, err
			}
		}
	}
	if on["airwallex"] {
		a := c.Airwallex
		ch, err := airwallex.New(airwallex.Config{ClientID: a.ClientID, APIKey: a.APIKey.Reveal(),
			WebhookSecret: a.WebhookSecret.Reveal(), BaseURL: a.Endpoint, Transport: transport})
		if err := add(ch, err); err != nil {
			return nil, err
		}
	}
	if on["stripe"] {
		s := c.Stripe
		ch, err := stripe.New(stripe.Config{SecretKey: s.SecretKey.Reveal(), WebhookSecret: s.WebhookSecret.Reveal(), BaseURL: s.Endpoint, Transport: transport})
		if err := add(ch, err); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// channelGateways puts each real channel in the one payment protocol,
// where it takes the place of the test gateway.
func (a *App) channelGateways(channels map[string]payment.Channel) {
	public := strings.TrimRight(a.Cfg.Payment.PublicURL, "/")
	for name, ch := range channels {
		a.gateways[name] = payment.ChannelGateway{Channel: ch, DB: a.DB, NotifyURL: public + "/payment/v2/notify/" + name,
			ReturnURL: public + "/", Card: cardKeys(a.Cfg.Payment.ChannelsConfig, name), Log: slog.Default()}
	}
}

// cardKeys are the public keys of the channel's card form in the payer's
// browser: Stripe's Payment Element needs the publishable key (without
// one the portal says the card form is not set up), Airwallex's hosted
// payment page its SDK environment. Nil for the other channels.
func cardKeys(c config.ChannelsConfig, channel string) *payment.CardKeys {
	switch channel {
	case stripe.Name:
		if c.Stripe.PublishableKey == "" {
			slog.Warn("payment.stripe.publishable_key is not set: payers cannot finish Stripe payments in the portal")
			return nil
		}
		return &payment.CardKeys{PublishableKey: c.Stripe.PublishableKey}
	case airwallex.Name:
		return &payment.CardKeys{Env: c.Airwallex.BrowserEnv()}
	}
	return nil
}

// notices takes the channels' notifications to the line whose booking
// each payment pays.
func (a *App) notices(channels map[string]payment.Channel) payment.Notices {
	lines := map[string]func(payment.ChannelPayment) payment.Held{
		booking.Flights.Name: a.Orders.HeldPayment,
		booking.Groups.Name:  a.Groups.HeldPayment,
		booking.Trains.Name:  a.Trains.HeldPayment,
	}
	return payment.Notices{Protocol: payment.Protocol{DB: a.DB, Ledger: a.Ledger, Log: slog.Default()}, Channels: channels,
		Log: slog.Default(),
		Held: func(_ context.Context, p payment.ChannelPayment) (payment.Held, error) {
			held, ok := lines[p.Line]
			if !ok {
				return nil, fmt.Errorf("app: channel payment %s pays a booking of %q, no line of this server", p.TradeNo, p.Line)
			}
			return held(p), nil
		}}
}

// NotifyHandler answers the channels' notifications: POST
// /payment/v2/notify/{channel}, public by necessity (the channels sign
// what they send, and Notices verifies it).
func (a *App) NotifyHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		channel := r.PathValue("channel")
		// Each channel's notifications are bounded (http.rate_limit.notify_*,
		// 50/s, burst 200): far above what a channel sends, it keeps a flood
		// of forged ones from costing a signature check each without end. A
		// refused notification is answered 429, and the channel sends it
		// again later.
		if c := a.Cfg.HTTP.RateLimit; a.limiter != nil && c.NotifyRate > 0 {
			res, err := a.limiter.Take(r.Context(), "notify:"+channel, ratelimit.Limit{Rate: c.NotifyRate, Burst: c.NotifyBurst})
			if err == nil && !res.Allowed {
				w.Header().Set("Retry-After", strconv.Itoa(max(1, int(res.RetryAfter.Seconds()))))
				http.Error(w, "too many notifications", http.StatusTooManyRequests)
				return
			}
		}
		a.channelNotices.Handle(w, r, channel)
	})
}

// reconcileEvery is how often the channel payments left pending past their
// window are asked about again (payment.Notices.Reconcile).
const reconcileEvery = 5 * time.Minute

// reconcileArgs is the periodic reconciliation of pending channel payments.
type reconcileArgs struct{}

// Kind implements river.JobArgs.
func (reconcileArgs) Kind() string { return "payment_reconcile" }

// InsertOpts: one run per period (booking.SweepOpts).
func (reconcileArgs) InsertOpts() river.InsertOpts { return booking.SweepOpts(reconcileEvery) }

// addPaymentWorkers registers the reconciliation (for jobs.Config.Register):
// a payment whose status check ended without an answer, or whose booking's
// check never ran, is settled, released or closed at its channel two
// minutes after its window. It registers too the refunds that go back
// through the channel a booking was paid by (payment.Refunds), and
// finance's daily reconciliation of the day before (reconcile.go).
func (a *App) addPaymentWorkers(w *jobs.Workers) []*river.PeriodicJob {
	payment.AddRefundWorker(w, payment.Refunds{DB: a.DB, Ledger: a.Ledger, Channels: a.channelNotices.Channels, Log: slog.Default()})
	return []*river.PeriodicJob{jobs.AddSweep(w, 30*time.Second, reconcileEvery, reconcileArgs{}, func(ctx context.Context) (int, error) {
		return a.channelNotices.Reconcile(ctx, a.gateways, 2*time.Minute)
	}), a.dailyReconciliation(w)}
}
