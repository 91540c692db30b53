package railsim

import "github.com/voyage/voyage/pkg/supplier/rail"

// A corridor is a real line (or a through route over several) as the
// ordered stations its trains call at, with the distance of each from the
// first. Stations are listed in the line's down direction, away from
// Beijing, which China Railway numbers odd (RAIL.md); up trains run the
// list backwards with even numbers.
//
// Distances are the lines' published route kilometres (Wikipedia's line
// articles and 12306 timetables' 里程 column), rounded to the km; where a
// through route joins two lines the sum is used. maxKmh is the line's
// design speed, which caps a train's own speed.
type corridor struct {
	id       string
	name     string
	maxKmh   int
	stops    []cstop
	services []service
}

// cstop is a station on a corridor; level says which trains call: 2 every
// train (terminals and the big cities fast trains stop at), 1 most, 0 the
// trains that stop everywhere, and every other regular train.
type cstop struct {
	code  string
	km    int
	level int
}

// A service is a family of trains on a corridor: all run daily, perDir
// each way, departing their first station evenly spread between first and
// last (local time), numbered from num (odd down, num+1 even up, stepping
// by 2). Train numbers follow the real ranges where known (G1–G20 the
// Beijing–Shanghai flagships, C2001 Beijing–Tianjin intercity, T109 and
// 1461 Beijing–Shanghai conventional); the rest are plausible, not real.
type service struct {
	typ     string
	num     int
	perDir  int
	first   string
	last    string
	pattern string // "express" (level 2), "regular" (level ≥1, some 0), "all"
	sleeper bool   // a night EMU sleeper (动卧) D train
	// dynamic: the fare floats with demand (12306 market pricing on
	// high-speed lines since 2020; RAIL.md's Beijing–Shanghai range).
	dynamic bool
}

var corridors = []corridor{
	{
		id: "jinghu-hsr", name: "Beijing–Shanghai HSR", maxKmh: 350,
		stops: []cstop{
			{"VNP", 0, 2}, {"LJP", 59, 0}, {"TIP", 131, 1}, {"CBP", 219, 0}, {"DIP", 327, 1},
			{"JGK", 406, 2}, {"TMK", 465, 0}, {"QAK", 535, 1}, {"TEK", 590, 0}, {"ZEK", 627, 0},
			{"UUH", 692, 1}, {"OXH", 767, 0}, {"BMH", 844, 1}, {"NKH", 1023, 2}, {"ZEH", 1088, 0},
			{"ESH", 1153, 1}, {"WGH", 1210, 0}, {"OHH", 1237, 1}, {"KNH", 1268, 0}, {"AOH", 1318, 2},
		},
		services: []service{
			{typ: rail.TypeG, num: 1, perDir: 10, first: "07:00", last: "19:00", pattern: "express", dynamic: true},
			{typ: rail.TypeG, num: 101, perDir: 20, first: "06:15", last: "18:40", pattern: "regular", dynamic: true},
			{typ: rail.TypeD, num: 701, perDir: 4, first: "19:10", last: "21:40", pattern: "express", sleeper: true, dynamic: true},
		},
	},
	{
		id: "jinggang-hsr", name: "Beijing–Guangzhou–Shenzhen HSR", maxKmh: 350,
		stops: []cstop{
			{"BXP", 0, 2}, {"ZAP", 60, 0}, {"BMP", 139, 1}, {"SJP", 281, 2}, {"EDP", 390, 0},
			{"EGF", 610, 0}, {"ZAF", 693, 2}, {"XVF", 773, 0}, {"ZLN", 901, 0}, {"OYN", 993, 1},
			{"WHN", 1229, 2}, {"AIQ", 1444, 1}, {"CWQ", 1591, 2}, {"HVQ", 1768, 1}, {"ICQ", 1917, 0},
			{"SNQ", 2060, 0}, {"IZQ", 2298, 2}, {"IOQ", 2400, 2}, {"NZQ", 2409, 2},
		},
		services: []service{
			{typ: rail.TypeG, num: 71, perDir: 6, first: "07:00", last: "13:00", pattern: "express", dynamic: true},
			{typ: rail.TypeG, num: 501, perDir: 10, first: "06:30", last: "17:30", pattern: "regular", dynamic: true},
			{typ: rail.TypeD, num: 901, perDir: 2, first: "19:30", last: "20:30", pattern: "express", sleeper: true, dynamic: true},
		},
	},
	{
		id: "coastal", name: "Shanghai–Shenzhen coastal HSR (Hangzhou–Ningbo–Wenzhou–Fuzhou–Xiamen–Shenzhen)", maxKmh: 250,
		stops: []cstop{
			{"AOH", 0, 2}, {"HGH", 159, 2}, {"NGH", 314, 1}, {"VRH", 582, 1}, {"FZS", 880, 2},
			{"XKS", 1155, 2}, {"CBQ", 1417, 1}, {"IOQ", 1657, 2},
		},
		services: []service{
			{typ: rail.TypeG, num: 1601, perDir: 4, first: "07:10", last: "12:40", pattern: "express", dynamic: true},
			{typ: rail.TypeD, num: 3101, perDir: 6, first: "06:40", last: "14:00", pattern: "all"},
		},
	},
	{
		id: "hukun-hsr", name: "Shanghai–Kunming HSR", maxKmh: 350,
		stops: []cstop{
			{"AOH", 0, 2}, {"HGH", 159, 2}, {"JBH", 310, 1}, {"SRG", 519, 1}, {"NXG", 741, 2},
			{"CWQ", 1086, 2}, {"KQW", 1790, 2}, {"KOM", 2252, 2},
		},
		services: []service{
			{typ: rail.TypeG, num: 1371, perDir: 4, first: "06:50", last: "10:30", pattern: "regular", dynamic: true},
			{typ: rail.TypeD, num: 3201, perDir: 4, first: "07:20", last: "15:20", pattern: "all"},
		},
	},
	{
		id: "xulan-hsr", name: "Xuzhou–Lanzhou HSR (Zhengzhou–Xuzhou, Zhengzhou–Xi'an, Xi'an–Baoji, Baoji–Lanzhou)", maxKmh: 350,
		stops: []cstop{
			{"UUH", 0, 2}, {"SQF", 135, 1}, {"ZAF", 362, 2}, {"LLF", 495, 1}, {"EAY", 867, 2},
			{"BBY", 1034, 1}, {"LAJ", 1435, 2},
		},
		services: []service{
			{typ: rail.TypeG, num: 1901, perDir: 6, first: "07:00", last: "16:00", pattern: "regular"},
			{typ: rail.TypeD, num: 2501, perDir: 4, first: "06:45", last: "15:45", pattern: "all"},
		},
	},
	{
		id: "hada-hsr", name: "Harbin–Dalian HSR", maxKmh: 300,
		stops: []cstop{
			{"DFT", 0, 2}, {"SYT", 353, 2}, {"SBT", 358, 1}, {"CRT", 662, 2}, {"VAB", 904, 2},
		},
		services: []service{
			{typ: rail.TypeG, num: 701, perDir: 8, first: "06:30", last: "18:30", pattern: "regular"},
			{typ: rail.TypeD, num: 21, perDir: 3, first: "07:30", last: "15:30", pattern: "all"},
		},
	},
	{
		id: "jingha-hsr", name: "Beijing–Harbin HSR (Beijing–Shenyang, Shenyang–Harbin)", maxKmh: 350,
		stops: []cstop{
			{"IFP", 0, 2}, {"SYT", 700, 2}, {"SBT", 705, 1}, {"CRT", 1009, 2}, {"VAB", 1251, 2},
		},
		services: []service{
			{typ: rail.TypeG, num: 901, perDir: 6, first: "07:00", last: "17:00", pattern: "regular", dynamic: true},
		},
	},
	{
		id: "chengyu-hsr", name: "Chengdu–Chongqing HSR", maxKmh: 350,
		stops: []cstop{{"ICW", 0, 2}, {"CQW", 308, 2}},
		services: []service{
			{typ: rail.TypeG, num: 8501, perDir: 12, first: "06:50", last: "21:00", pattern: "express"},
			{typ: rail.TypeC, num: 6001, perDir: 6, first: "07:15", last: "20:15", pattern: "express"},
		},
	},
	{
		id: "chengyu-conv", name: "Chengdu–Suining–Chongqing railway", maxKmh: 160,
		stops: []cstop{{"CDW", 0, 2}, {"CUW", 371, 2}},
		services: []service{
			{typ: rail.TypeK, num: 9401, perDir: 2, first: "08:10", last: "21:30", pattern: "all"},
		},
	},
	{
		id: "ninghang-hsr", name: "Nanjing–Hangzhou HSR", maxKmh: 350,
		stops: []cstop{{"NKH", 0, 2}, {"HGH", 251, 2}},
		services: []service{
			{typ: rail.TypeG, num: 7601, perDir: 12, first: "06:40", last: "21:20", pattern: "express"},
		},
	},
	{
		id: "huning-ic", name: "Shanghai–Nanjing intercity", maxKmh: 350,
		stops: []cstop{{"NJH", 0, 2}, {"OHH", 217, 1}, {"SHH", 301, 2}},
		services: []service{
			{typ: rail.TypeG, num: 7001, perDir: 10, first: "06:30", last: "21:30", pattern: "express"},
			{typ: rail.TypeD, num: 5401, perDir: 6, first: "07:00", last: "20:00", pattern: "all"},
		},
	},
	{
		id: "jingjin-ic", name: "Beijing–Tianjin intercity", maxKmh: 350,
		stops: []cstop{{"VNP", 0, 2}, {"TJP", 120, 2}},
		services: []service{
			{typ: rail.TypeC, num: 2001, perDir: 16, first: "06:00", last: "22:00", pattern: "express"},
		},
	},
	{
		id: "guangshen", name: "Guangzhou–Shenzhen railway", maxKmh: 200,
		stops: []cstop{{"GGQ", 0, 2}, {"SZQ", 139, 2}},
		services: []service{
			{typ: rail.TypeC, num: 7001, perDir: 12, first: "06:30", last: "21:30", pattern: "express"},
		},
	},
	{
		id: "jinghu-conv", name: "Beijing–Shanghai railway", maxKmh: 160,
		stops: []cstop{
			{"BJP", 0, 2}, {"TJP", 137, 2}, {"JNK", 494, 2}, {"XCH", 813, 2}, {"NJH", 1160, 2}, {"SHH", 1463, 2},
		},
		services: []service{
			{typ: rail.TypeZ, num: 281, perDir: 1, first: "19:30", last: "19:30", pattern: "express"},
			{typ: rail.TypeT, num: 109, perDir: 1, first: "20:05", last: "20:05", pattern: "all"},
			{typ: rail.TypeK, num: 101, perDir: 1, first: "14:20", last: "14:20", pattern: "all"},
			{typ: rail.TypeOrdinary, num: 1461, perDir: 1, first: "11:20", last: "11:20", pattern: "all"},
		},
	},
	{
		id: "jinggang-conv", name: "Beijing–Guangzhou railway", maxKmh: 160,
		stops: []cstop{
			{"BXP", 0, 2}, {"SJP", 277, 2}, {"ZZF", 689, 2}, {"WCN", 1225, 2}, {"CSQ", 1587, 2}, {"GZQ", 2294, 2},
		},
		services: []service{
			{typ: rail.TypeZ, num: 35, perDir: 1, first: "20:00", last: "20:00", pattern: "express"},
			{typ: rail.TypeT, num: 15, perDir: 1, first: "11:00", last: "11:00", pattern: "all"},
			{typ: rail.TypeK, num: 599, perDir: 1, first: "08:45", last: "08:45", pattern: "all"},
		},
	},
	{
		id: "jinglan-conv", name: "Beijing–Zhengzhou–Xi'an–Lanzhou railway", maxKmh: 160,
		stops: []cstop{
			{"BXP", 0, 2}, {"SJP", 277, 1}, {"ZZF", 689, 2}, {"XAY", 1200, 2}, {"LZJ", 1876, 2},
		},
		services: []service{
			{typ: rail.TypeZ, num: 55, perDir: 1, first: "15:50", last: "15:50", pattern: "express"},
			{typ: rail.TypeT, num: 151, perDir: 1, first: "17:30", last: "17:30", pattern: "regular"},
			{typ: rail.TypeK, num: 43, perDir: 1, first: "09:10", last: "09:10", pattern: "all"},
		},
	},
	{
		id: "hada-conv", name: "Harbin–Dalian railway", maxKmh: 160,
		stops: []cstop{{"DLT", 0, 2}, {"SYT", 397, 2}, {"CCT", 702, 2}, {"HBB", 944, 2}},
		services: []service{
			{typ: rail.TypeK, num: 7301, perDir: 2, first: "08:00", last: "20:30", pattern: "all"},
			{typ: rail.TypeT, num: 5301, perDir: 1, first: "21:10", last: "21:10", pattern: "all"},
		},
	},
}
