package i18n

import (
	"strings"
	"testing"
)

// The Chinese catalogs keep to their readers' terms. A group's deposits are
// forfeited when the group is cancelled, which in the law of both the
// mainland and Taiwan makes them 定金 (earnest money), never 订金/訂金 (a
// refundable prepayment): one wallet row once said both. Traditional Chinese
// is written for Taiwan, so mainland words for the same thing are wrong
// there even when written in traditional characters.
func TestChineseTerms(t *testing.T) {
	t.Parallel()
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	forbidden := map[string]map[string]string{
		ZhCN: {"订金": "定金"},
		ZhTW: {
			"訂金": "定金", "郵箱": "電子郵件", "搜索": "搜尋", "在線": "線上", "字符": "字元", "支持": "支援",
			"獲取": "取得", "默認": "預設", "視頻": "影片", "軟件": "軟體", "用戶": "使用者", "服務器": "伺服器",
			"網絡": "網路", "打印": "列印", "菜單": "選單", "鏈接": "連結", "設置": "設定", "激活": "啟用",
			"導出": "匯出", "導入": "匯入", "屏幕": "螢幕", "數據": "資料", "信息": "資訊", "登錄": "登入",
			"賬": "帳", "短信": "簡訊", "質量": "品質", "文本": "文字", "異步": "非同步", "緩存": "快取",
		},
	}
	for lang, words := range forbidden {
		for _, k := range c.Keys(lang) {
			v := c.msgs[lang][k]
			for bad, good := range words {
				if strings.Contains(v, bad) {
					t.Errorf("%s %s says %q: write %q (%s)", lang, k, bad, good, v)
				}
			}
		}
	}
}
