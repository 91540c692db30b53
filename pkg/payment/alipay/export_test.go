package alipay

var PlainSubject = plainSubject
