package alipaytest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/payment/alipay"
)

// Codes of the gateway's answers (Alipay's "公共错误码" table): 10000
// success, 20000 service unavailable, 40001 missing argument (isv.missing-*),
// 40002 invalid argument (isv.invalid-*), 40004 business failure (ACQ.*).
var msgs = map[string]string{
	"10000": "Success",
	"20000": "Service Currently Unavailable",
	"40001": "Missing Required Arguments",
	"40002": "Invalid Arguments",
	"40004": "Business Failed",
}

// failure is an answer whose code is not 10000.
type failure struct{ code, subCode, subMsg string }

func fail(code, subCode, subMsg string) *failure { return &failure{code, subCode, subMsg} }

// maxSkew is how far a request's timestamp may be from the gateway's
// clock.
const maxSkew = 30 * time.Minute

var methods = map[string]func(*Server, map[string]any, string) (map[string]any, *failure){
	alipay.MethodPrecreate: (*Server).precreate,
	alipay.MethodQuery:     (*Server).query,
	alipay.MethodClose:     (*Server).close,
	alipay.MethodRefund:    (*Server).refund,
}

// ServeHTTP is the gateway (gateway.do): the common parameters in the
// query string or the form, biz_content in the form.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost && r.Method != http.MethodGet {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	failing := s.fail > 0
	if failing {
		s.fail--
	}
	s.mu.Unlock()
	if failing {
		http.Error(w, "Bad Gateway", http.StatusBadGateway)
		return
	}

	form := r.Form
	method := form.Get("method")
	handle, known := methods[method]
	node := strings.ReplaceAll(method, ".", "_") + "_response"
	if !known {
		node = "error_response"
	}
	refuse := func(f *failure) {
		s.answer(w, node, map[string]any{"code": f.code, "msg": msgs[f.code], "sub_code": f.subCode, "sub_msg": f.subMsg})
	}
	if f := s.checkCommon(form.Get, method, known); f != nil {
		refuse(f)
		return
	}
	content := alipay.SignContent(form, "sign")
	if alipay.Verify(s.o.MerchantKey, []byte(content), form.Get("sign")) != nil {
		// The gateway shows the text it verified, as Alipay's does.
		refuse(fail("40002", "isv.invalid-signature", "验签出错，建议检查签名字符串或签名私钥与应用公钥是否匹配，网关生成的验签字符串为："+content))
		return
	}
	var biz map[string]any
	if err := json.Unmarshal([]byte(form.Get("biz_content")), &biz); err != nil {
		refuse(fail("40004", "ACQ.INVALID_PARAMETER", "biz_content 不是 JSON"))
		return
	}
	s.mu.Lock()
	out, f := handle(s, biz, form.Get("notify_url"))
	s.mu.Unlock()
	if f != nil {
		refuse(f)
		return
	}
	out["code"], out["msg"] = "10000", msgs["10000"]
	s.answer(w, node, out)
}

func (s *Server) checkCommon(get func(string) string, method string, known bool) *failure {
	switch {
	case get("app_id") == "":
		return fail("40001", "isv.missing-app-id", "缺少AppID参数")
	case get("app_id") != s.o.AppID:
		return fail("40002", "isv.invalid-app-id", "无效的AppID参数")
	case method == "":
		return fail("40001", "isv.missing-method", "缺少方法名参数")
	case !known:
		return fail("40002", "isv.invalid-method", "不存在的方法名")
	case get("sign") == "":
		return fail("40001", "isv.missing-signature", "缺少签名参数")
	case get("sign_type") == "":
		return fail("40001", "isv.missing-signature-type", "缺少签名类型参数")
	case get("sign_type") != "RSA2":
		return fail("40002", "isv.invalid-signature-type", "无效签名类型")
	case !strings.EqualFold(get("charset"), "utf-8"):
		return fail("40002", "isv.invalid-charset", "字符集错误")
	case get("format") != "" && !strings.EqualFold(get("format"), "JSON"):
		return fail("40002", "isv.invalid-format", "无效数据格式")
	case get("version") != "1.0":
		return fail("40002", "isv.invalid-parameter", "version 应为 1.0")
	case get("timestamp") == "":
		return fail("40001", "isv.missing-timestamp", "缺少时间戳参数")
	}
	at, err := time.ParseInLocation(alipay.TimeLayout, get("timestamp"), alipay.Beijing)
	if d := s.now().Sub(at); err != nil || d > maxSkew || d < -maxSkew {
		return fail("40002", "isv.invalid-timestamp", "非法的时间戳参数")
	}
	return nil
}

func str(biz map[string]any, k string) string {
	s, _ := biz[k].(string)
	return s
}

// outTradeNo checks an out_trade_no as "统一收单线下交易预创建" describes it: 64
// characters at most, letters, digits and '_'.
func (s *Server) outTradeNo(no string) *failure {
	if no == "" || len(no) > 64 {
		return fail("40004", "ACQ.INVALID_PARAMETER", "out_trade_no 长度不合法")
	}
	for _, r := range no {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' && s.o.AllowHyphen) {
			return fail("40004", "ACQ.INVALID_PARAMETER", "out_trade_no 仅支持字母、数字、下划线")
		}
	}
	return nil
}

// price reads an amount in yuan as the API pages bound it: two decimals
// at most, [0.01, 100000000].
func price(v string) (int64, *failure) {
	fen, err := alipay.Fen(v)
	if err != nil || fen < 1 || fen > 100000000*100 {
		return 0, fail("40004", "ACQ.INVALID_PARAMETER", "金额不合法: "+v)
	}
	return fen, nil
}

// precreate is alipay.trade.precreate: a retry with the same out_trade_no
// and amount answers the same QR code while the trade waits.
func (s *Server) precreate(biz map[string]any, notifyURL string) (map[string]any, *failure) {
	no := str(biz, "out_trade_no")
	if f := s.outTradeNo(no); f != nil {
		return nil, f
	}
	amount, f := price(str(biz, "total_amount"))
	if f != nil {
		return nil, f
	}
	subject := str(biz, "subject")
	if subject == "" || len([]rune(subject)) > 256 {
		return nil, fail("40004", "ACQ.INVALID_PARAMETER", "subject 不合法")
	}
	var expire time.Time
	if te := str(biz, "time_expire"); te != "" {
		at, err := time.ParseInLocation(alipay.TimeLayout, te, alipay.Beijing)
		if err != nil {
			return nil, fail("40004", "ACQ.INVALID_PARAMETER", "time_expire 格式不合法")
		}
		expire = at
	}
	if t, ok := s.trades[no]; ok {
		s.expireLocked(t)
		switch {
		case t.status == alipay.TradeSuccess || t.status == alipay.TradeFinished || t.refunded > 0:
			return nil, fail("40004", alipay.SubTradeHasSuccess, "交易已被支付")
		case t.status == alipay.TradeClosed:
			return nil, fail("40004", alipay.SubTradeHasClose, "交易已经关闭")
		case t.amount != amount:
			return nil, fail("40004", "ACQ.CONTEXT_INCONSISTENT", "交易信息被篡改")
		}
		return map[string]any{"out_trade_no": no, "qr_code": t.qrCode}, nil
	}
	if !expire.IsZero() && !s.now().Before(expire) {
		return nil, fail("40004", "ACQ.INVALID_PARAMETER", "time_expire 已过")
	}
	now := s.now()
	s.seq++
	t := &trade{
		outTradeNo: no,
		tradeNo:    fmt.Sprintf("%s22001%015d", now.Format("20060102"), s.seq),
		subject:    subject,
		qrCode:     s.qrCode(no),
		notifyURL:  notifyURL,
		amount:     amount,
		status:     alipay.WaitBuyerPay,
		exists:     !s.o.Lazy,
		created:    now,
		expire:     expire,
		refunds:    map[string]int64{},
	}
	s.trades[no] = t
	return map[string]any{"out_trade_no": no, "qr_code": t.qrCode}, nil
}

// existing answers the trade biz names (out_trade_no or trade_no), as
// Alipay knows it.
func (s *Server) existing(biz map[string]any) (*trade, *failure) {
	no, tradeNo := str(biz, "out_trade_no"), str(biz, "trade_no")
	if no == "" && tradeNo == "" {
		return nil, fail("40004", "ACQ.INVALID_PARAMETER", "out_trade_no 与 trade_no 不能同时为空")
	}
	var t *trade
	if tradeNo != "" {
		for _, x := range s.trades {
			if x.tradeNo == tradeNo {
				t = x
			}
		}
	} else {
		t = s.trades[no]
	}
	if t == nil || !t.exists {
		return nil, fail("40004", alipay.SubTradeNotExist, "交易不存在")
	}
	s.expireLocked(t)
	return t, nil
}

// query is alipay.trade.query. charge_amount is the fee charged to the
// merchant ("该笔交易针对收款方的收费金额"); the fake answers it on every
// paid trade.
func (s *Server) query(biz map[string]any, _ string) (map[string]any, *failure) {
	t, f := s.existing(biz)
	if f != nil {
		return nil, f
	}
	out := map[string]any{
		"trade_no":     t.tradeNo,
		"out_trade_no": t.outTradeNo,
		"trade_status": t.status,
		"total_amount": alipay.Yuan(t.amount),
	}
	if !t.paidAt.IsZero() {
		out["buyer_logon_id"] = "159****5620"
		out["buyer_user_id"] = "2088102122524333"
		out["buyer_pay_amount"] = alipay.Yuan(t.amount)
		out["receipt_amount"] = alipay.Yuan(t.amount)
		out["send_pay_date"] = t.paidAt.Format(alipay.TimeLayout)
		out["charge_amount"] = alipay.Yuan(t.fee)
	}
	return out, nil
}

// close is alipay.trade.close: only a waiting trade closes.
func (s *Server) close(biz map[string]any, _ string) (map[string]any, *failure) {
	t, f := s.existing(biz)
	if f != nil {
		return nil, f
	}
	if t.status != alipay.WaitBuyerPay {
		return nil, fail("40004", alipay.SubTradeStatus, "交易状态不合法")
	}
	s.closeLocked(t, false)
	return map[string]any{"trade_no": t.tradeNo, "out_trade_no": t.outTradeNo}, nil
}

// refund is alipay.trade.refund. A retry under an out_request_no already
// refunded answers that refund with fund_change "N" (open.alitrip.com
// article 104636: "the original out_request_no should be used"). The fake
// refuses a retry naming another amount, which Alipay leaves undefined.
func (s *Server) refund(biz map[string]any, _ string) (map[string]any, *failure) {
	t, f := s.existing(biz)
	if f != nil {
		return nil, f
	}
	amount, f := price(str(biz, "refund_amount"))
	if f != nil {
		return nil, f
	}
	req := str(biz, "out_request_no")
	if req == "" {
		req = t.outTradeNo // Alipay's default: the refund of the whole trade
	}
	answer := func(change string) map[string]any {
		return map[string]any{
			"trade_no":       t.tradeNo,
			"out_trade_no":   t.outTradeNo,
			"buyer_logon_id": "159****5620",
			"buyer_user_id":  "2088102122524333",
			"fund_change":    change,
			"refund_fee":     alipay.Yuan(t.refunded),
			"gmt_refund_pay": t.refundedAt.Format(alipay.TimeLayout),
		}
	}
	if prev, ok := t.refunds[req]; ok {
		if prev != amount {
			return nil, fail("40004", "ACQ.INVALID_PARAMETER", "out_request_no 已用于另一金额")
		}
		return answer("N"), nil
	}
	switch {
	case t.paidAt.IsZero() || t.status == alipay.TradeFinished:
		return nil, fail("40004", alipay.SubTradeStatus, "交易状态不合法")
	case t.status == alipay.TradeClosed:
		return nil, fail("40004", alipay.SubTradeHasClose, "交易已经关闭")
	case t.refunded+amount > t.amount:
		return nil, fail("40004", "ACQ.REFUND_AMT_NOT_EQUAL_TOTAL", "退款金额超限")
	}
	t.refunds[req] = amount
	t.refunded += amount
	t.refundedAt = s.now()
	if t.refunded == t.amount {
		t.status = alipay.TradeClosed
		t.closedAt = t.refundedAt
	}
	s.notifyLocked(t, &refundNote{outRequestNo: req})
	return answer("Y"), nil
}
