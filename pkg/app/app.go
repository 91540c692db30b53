// Package app wires configuration, storage, services and servers together.
// Reading this file shows the whole dependency graph of the binary.
package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riverqueue/river"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/api"
	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/idempotency"
	"github.com/voyage/voyage/pkg/jobs"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/mail"
	"github.com/voyage/voyage/pkg/metrics"
	"github.com/voyage/voyage/pkg/partnership"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/profile"
	"github.com/voyage/voyage/pkg/ratelimit"
	"github.com/voyage/voyage/pkg/recognition"
	"github.com/voyage/voyage/pkg/server"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/siteinfo"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/tracing"
	"github.com/voyage/voyage/pkg/train"
	"github.com/voyage/voyage/pkg/web"
	"github.com/voyage/voyage/pkg/webhook"
)

// Version is set at build time with -ldflags "-X github.com/voyage/voyage/pkg/app.Version=…".
var Version = "dev"

// App is the wired application.
type App struct {
	Cfg          config.Config
	DB           *store.DB
	Catalog      *i18n.Catalog
	Site         *siteinfo.Service
	Applications *partnership.Service
	Agencies     *agency.Store
	Auth         *auth.Service
	Profile      *profile.Service
	Ledger       *ledger.Ledger
	AgencyAdmin  *agency.Service
	Shopping     *shopping.Engine
	Orders       *flight.Service
	Webhooks     *webhook.Service
	// Groups runs group flight orders.
	Groups *group.Service
	// Trains is the train product line (pkg/train).
	Trains *train.Service
	// Queue is the River client: jobs are queued by the services in their
	// own transactions whether or not this process works them.
	Queue   *jobs.Queue
	Router  *api.Router
	Web     *web.Server
	Handler http.Handler
	// Metrics are this app's Prometheus instruments, on a registry of its
	// own; nil when metrics.addr is empty.
	Metrics     *metrics.Metrics
	metricsAddr atomic.Value // string: where Serve serves them
	// Tracing is the OpenTelemetry provider the app's spans go to.
	Tracing *tracing.Tracing

	stopBatching func()
	// accessLog sums up the successful requests every accessLogEvery.
	accessLog *server.AccessLog
	// stopAuditBatch ends the user log's group inserts.
	stopAuditBatch func()
	// stopSearches cancels the searches in flight when the app closes.
	stopSearches context.CancelFunc
	// stopSessionGroup ends the group inserts of the searches' answers.
	stopSessionGroup func()
	redis            io.Closer
	rateRedis        io.Closer
	limiter          ratelimit.Limiter
	// quotes are the verified flight quotes, shared by shopping and orders.
	quotes *shopping.Quotes
	// gateways are the payment gateways every line shares.
	gateways map[string]payment.Gateway
	// channelNotices take the real channels' notifications.
	channelNotices payment.Notices
	// draining is set when the instance was told to stop: /readyz answers
	// 503 from then on (lifecycle.go).
	draining atomic.Bool
	// drainTimer is time.After unless a test holds the drain delay open.
	drainTimer func(time.Duration) <-chan time.Time
}

// New opens the database (migrating it unless cfg.NoMigrate) and builds every
// service and the HTTP handler.
func New(ctx context.Context, cfg config.Config) (*App, error) {
	cat, err := i18n.Load()
	if err != nil {
		return nil, err
	}
	// A key the catalogs lack shows its reader a raw code: a defect to see
	// in the log (once per key and language), and what the browser walk
	// reads to fail on it.
	cat.OnMiss(func(m i18n.Miss) {
		slog.Warn("i18n: missing catalog key", "lang", m.Lang, "key", m.Key)
	})
	tr, err := tracing.New(ctx, tracing.Config{OTLPEndpoint: cfg.Tracing.OTLPEndpoint, SampleRatio: cfg.Tracing.SampleRatio, Version: Version})
	if err != nil {
		return nil, err
	}
	var dbOpts store.Options
	if tr.Exporting() {
		dbOpts.Tracer = tr.Provider()
	}
	db, err := store.OpenWith(ctx, cfg.DB, dbOpts)
	if err != nil {
		_ = tr.Shutdown(ctx)
		return nil, err
	}
	a := &App{Cfg: cfg, DB: db, Catalog: cat, Tracing: tr, Metrics: newMetrics(cfg.Metrics.Addr)}
	if cfg.NoMigrate {
		// Migrate prepares the hot statements; without it they are prepared
		// here, the schema being someone else's to migrate.
		db.PrepareStatements(ctx)
	} else if err := db.Migrate(ctx); err != nil {
		a.Close()
		return nil, err
	}
	a.Site = siteinfo.New(cfg.Site, db)
	a.Applications = partnership.New(db)
	a.Agencies = agency.NewStore(db)
	// Every request reads its agency: keep hot rows a second. Changes made
	// here are seen at once; another instance's within that second.
	a.Agencies.CacheFor(time.Second)
	a.Auth = auth.NewService(db, a.Agencies, cfg.Auth.SessionIdle, cfg.Auth.SessionMax)
	a.Profile = profile.New(db)
	// The sessions keep their users a second: a profile change is read
	// again at once.
	a.Profile.OnUserChange(a.Auth.ForgetUser)
	a.Ledger = ledger.New(db)
	// Group commit on PostgreSQL: concurrent money movements share one
	// commit (a no-op on SQLite's single writer).
	a.stopBatching = a.Ledger.StartBatching(64)
	a.AgencyAdmin = agency.NewService(db, a.Agencies, a.Ledger)
	// Deliveries carry the traceparent to the agencies' receivers.
	a.Webhooks = webhook.New(db, webhook.WithAgencies(a.Agencies), webhook.WrapTransport(tr.Transport))
	a.AgencyAdmin.AddDeleteGuard(a.Webhooks.DeleteGuard)
	if err := a.buildShopping(ctx); err != nil {
		a.Close()
		return nil, err
	}
	a.buildGateways()
	channels, err := BuildChannels(cfg.Payment.ChannelsConfig, tr.Transport(nil))
	if err != nil {
		a.Close()
		return nil, err
	}
	a.channelGateways(channels)
	a.buildOrders()
	a.Orders.SetNotifier(a.Webhooks)
	a.AgencyAdmin.AddDeleteGuard(a.Orders.DeleteGuard)
	if err := a.buildTrains(); err != nil {
		a.Close()
		return nil, err
	}
	a.Trains.SetNotifier(a.Webhooks)
	a.AgencyAdmin.AddDeleteGuard(a.Trains.DeleteGuard)
	a.buildGroups()
	a.channelNotices = a.notices(channels)
	jobsCfg := jobs.Config{Workers: cfg.Jobs.Workers, PollInterval: cfg.Jobs.PollInterval, CleanupInterval: cfg.Jobs.CleanupInterval,
		RescueAfter: cfg.Jobs.RescueAfter, Mail: a.mailSender(), MailFrom: cfg.Mail.From,
		Register:   []func(*jobs.Workers) []*river.PeriodicJob{a.Orders.AddWorkers, a.Webhooks.AddWorkers, a.Trains.AddWorkers, a.Groups.AddWorkers, a.addPaymentWorkers},
		Middleware: tr.RiverMiddleware()}
	if db.Dialect == store.Postgres {
		// The workers listen on their own pgx connections.
		jobsCfg.PostgresURL = cfg.DB
	}
	q, err := jobs.New(db, jobsCfg)
	if err != nil {
		a.Close()
		return nil, err
	}
	a.Queue = q
	a.watch()
	a.Orders.SetQueue(q.Client)
	a.Webhooks.SetQueue(q.Client)
	a.Groups.SetQueue(q.Client)
	a.Trains.SetQueue(q.Client)
	console, err := q.Console(web.JobConsolePrefix)
	if err != nil {
		a.Close()
		return nil, err
	}
	a.Web = web.New(web.Options{Site: a.Site, Applications: a.Applications, SecureCookies: cfg.HTTP.SecureCookies, Auth: a.Auth, Agencies: a.Agencies,
		UserAdmin: a.Auth, CompanyAdmin: a.Agencies, AgencyAdmin: a.AgencyAdmin, Ledger: a.Ledger, Webhooks: a.Webhooks, Orders: a.Orders, Catalog: a.Catalog,
		Trains: a.Trains, Groups: a.Groups, Profile: a.Profile, Reconciler: a.Reconciler(),
		JobConsole: console})
	a.accessLog = server.NewAccessLog(nil, accessLogEvery)
	if err := a.openRateLimiter(ctx); err != nil {
		a.Close()
		return nil, err
	}
	a.Handler = a.buildHandler()
	return a, nil
}

// accessLogEvery is how often the access log sums up the requests answered.
const accessLogEvery = 10 * time.Second

// Close stops the ledger's group commit and releases the database.
func (a *App) Close() error {
	if a.accessLog != nil {
		a.accessLog.Close()
	}
	if a.stopAuditBatch != nil {
		a.stopAuditBatch()
	}
	if a.stopBatching != nil {
		a.stopBatching()
	}
	if a.stopSearches != nil {
		a.stopSearches()
		// The searches store what their suppliers answered before the
		// database closes.
		a.Shopping.Wait()
	}
	if a.stopSessionGroup != nil {
		a.stopSessionGroup()
	}
	if a.rateRedis != nil {
		a.rateRedis.Close()
	}
	if a.redis != nil {
		a.redis.Close()
	}
	if a.Queue != nil {
		a.Queue.Close()
	}
	err := a.DB.Close()
	// Last: the spans of the jobs and searches stopped above go out too.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return errors.Join(err, a.Tracing.Shutdown(ctx))
}

func isAPIPath(p string) bool {
	return strings.HasPrefix(p, "/base/") || strings.HasPrefix(p, "/order/") || strings.HasPrefix(p, "/shopping/")
}

func (a *App) buildHandler() http.Handler {
	mux := http.NewServeMux()
	userLog := audit.NewLog(a.DB)
	if a.DB.Dialect == store.Postgres {
		// SQLite has one writer: sharing its commits gains nothing.
		a.stopAuditBatch = userLog.Batch(64)
	}
	a.Router = api.NewRouter(mux, a.Auth, userLog)
	a.Router.SerialiseKeys(idempotency.New(a.DB))
	a.applyRateLimits()
	api.Register(a.Router, api.Services{Site: a.Site, Applications: a.Applications, Auth: a.Auth, Agencies: a.Agencies, Profile: a.Profile, AgencyService: a.AgencyAdmin, Ledger: a.Ledger, Catalog: a.Catalog, Shopping: a.Shopping, Orders: a.Orders, Webhooks: a.Webhooks, Jobs: a.Queue, WebsitePrefix: a.Cfg.Site.WebsitePrefix,
		Trains: a.Trains, Groups: a.Groups})
	// Document recognition (issue 18): Tesseract is run per request.
	api.RegisterRecognition(a.Router, recognition.New(recognition.Config{}))
	a.Router.Finish("/base/", "/order/", "/shopping/")

	// The document (1.4 MB, a quarter of a second to reflect and encode) is
	// made on its first request, not on every start: most instances (the
	// CLI's, the tests') never serve it.
	openapi := sync.OnceValues(func() ([]byte, error) {
		return json.MarshalIndent(a.Router.OpenAPI(), "", "  ")
	})
	mux.HandleFunc("GET /openapi.json", func(w http.ResponseWriter, r *http.Request) {
		doc, err := openapi()
		if err != nil {
			slog.ErrorContext(r.Context(), "app: encode the OpenAPI document", "err", err)
			http.Error(w, "the API document could not be made", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "public, max-age=300")
		_, _ = w.Write(doc)
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", a.ready)
	// The payment channels' notifications: public by necessity, signed by
	// the channels and verified before anything changes (payment.Notices).
	mux.Handle("POST /payment/v2/notify/{channel}", a.NotifyHandler())
	// Duffel's webhooks: public likewise, signed and verified first.
	mux.Handle("POST /supplier/v2/duffel/webhook", a.DuffelWebhookHandler())
	a.Web.Register(mux)

	onPanic := func(w http.ResponseWriter, r *http.Request) {
		if isAPIPath(r.URL.Path) {
			api.WriteError(w, r, fault.Internal(errors.New("panic")))
			return
		}
		a.Web.ServerError(w, r)
	}
	crossOriginRejected := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fe := fault.New(fault.CodeNoAccess, http.StatusForbidden, "error.crossOrigin")
		if isAPIPath(r.URL.Path) {
			api.WriteError(w, r, fe)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(i18n.T(r.Context(), fe.Key) + "\n"))
	})
	textRefused := func(w http.ResponseWriter, r *http.Request, field, key string) {
		if isAPIPath(r.URL.Path) {
			api.WriteError(w, r, fault.Validation(map[string]string{field: key}))
			return
		}
		a.Web.RefuseText(w, r, field, key)
	}
	// Outermost, so the request id, the access log and every line logged
	// for the request carry its trace id; the span is named by the route
	// the mux will choose.
	route := func(r *http.Request) string { _, pattern := mux.Handler(r); return pattern }
	return a.Tracing.Handler(server.Chain(a.Metrics.Routed(mux),
		a.Metrics.HTTP(mux),
		server.RealClient(a.proxies()),
		server.RequestID,
		a.accessLog.Handler,
		server.SecurityHeaders,
		server.HSTS(a.Cfg.HTTP.HSTS.Enabled, a.Cfg.HTTP.HSTS.MaxAge, a.Cfg.HTTP.HSTS.IncludeSubdomains),
		// Inside the access log and the metrics: they count the answer as
		// the handler wrote it.
		server.Compress(),
		server.Language(a.Catalog, a.Cfg.Site.DefaultLanguage),
		server.Recover(onPanic),
		server.LimitBody(a.Cfg.HTTP.MaxBodyBytes),
		server.CrossOrigin(crossOriginRejected),
		// Before the guard: its single-login entry reads the query.
		server.PlainText(textRefused),
		a.Web.Guard,
	), route)
}

// mailSender is SMTP when configured, else the development outbox folder.
func (a *App) mailSender() mail.Sender {
	m := a.Cfg.Mail
	if m.SMTPHost != "" {
		return mail.SMTP{Host: m.SMTPHost, Port: m.SMTPPort, Username: m.SMTPUsername, Password: m.SMTPPassword}
	}
	return mail.Outbox{Dir: m.OutboxDir}
}

// Serve runs the HTTP server and the job queue until ctx ends, then drains
// and shuts both down (shutdown, lifecycle.go). ready, if not nil, receives
// the bound address.
func (a *App) Serve(ctx context.Context, ready func(addr string)) error {
	stopMetrics, err := a.serveMetrics(ctx)
	if err != nil {
		return err
	}
	defer stopMetrics()
	var queue *jobs.Queue
	if a.Cfg.Jobs.Enabled {
		// Jobs get their own context: they must not stop the moment the
		// signal arrives, but when Stop says so.
		if err := a.Queue.Start(context.WithoutCancel(ctx)); err != nil {
			return err
		}
		queue = a.Queue
	}

	ln, err := net.Listen("tcp", a.Cfg.Addr)
	if err != nil {
		if queue != nil {
			_ = queue.Stop(context.Background())
		}
		return fmt.Errorf("app: listen on %s: %w", a.Cfg.Addr, err)
	}
	srv := &http.Server{
		Handler:           a.closeWhileDraining(a.Handler),
		ReadHeaderTimeout: a.Cfg.HTTP.ReadHeaderTimeout,
		ReadTimeout:       a.Cfg.HTTP.ReadTimeout,
		WriteTimeout:      a.Cfg.HTTP.WriteTimeout,
		IdleTimeout:       a.Cfg.HTTP.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(slog.Default().Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	slog.Info("voyage serving", "addr", "http://"+ln.Addr().String(), "db", string(a.DB.Dialect), "version", Version)
	if ready != nil {
		ready(ln.Addr().String())
	}

	select {
	case err := <-errc:
		if queue != nil {
			_ = queue.Stop(context.Background())
		}
		return fmt.Errorf("app: serve: %w", err)
	case <-ctx.Done():
	}
	return a.shutdown(srv, errc, queue)
}

// proxies are the load balancers whose X-Forwarded-For names the client
// (http.trusted_proxies, checked when the configuration was read).
func (a *App) proxies() []netip.Prefix {
	p, err := a.Cfg.HTTP.Proxies()
	if err != nil {
		slog.Error("app: http.trusted_proxies", "err", err)
		return nil
	}
	return p
}
