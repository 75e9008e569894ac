// Our driver for OMPEval (github.com/zekyll/OMPEval), the peer of `pipeline equity` in
// scripts/bench_peers.py: one equity question through its EquityCalculator, printing the
// hands evaluated, the time and the equities. Built by scripts/peers/build.sh against a
// checkout of OMPEval; OMPEval itself is never copied here.
//
// omp_driver MODE THREADS TARGET BOARD RANGE...
//   MODE enum: exact enumeration (TARGET unused); se: Monte Carlo to standard error
//   TARGET; mc: Monte Carlo for TARGET seconds. BOARD: "-" or cards such as Ks7d2c.
#include <omp/EquityCalculator.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    if (argc < 7) {
        std::cerr << "usage: omp_driver enum|se|mc THREADS TARGET BOARD RANGE RANGE...\n";
        return 2;
    }
    const std::string mode = argv[1];
    const unsigned threads = std::atoi(argv[2]);
    const double target = std::atof(argv[3]);
    const std::string board = argv[4];
    std::vector<omp::CardRange> ranges;
    for (int i = 5; i < argc; ++i) ranges.emplace_back(argv[i]);
    omp::EquityCalculator calc;
    const uint64_t board_mask = board == "-" ? 0 : omp::CardRange::getCardMask(board);
    if (mode == "enum") {
        calc.start(ranges, board_mask, 0, true, 0, nullptr, 0.2, threads);
    } else if (mode == "se") {
        calc.start(ranges, board_mask, 0, false, target, nullptr, 0.2, threads);
    } else {
        calc.setTimeLimit(target);
        calc.start(ranges, board_mask, 0, false, 0, nullptr, 0.2, threads);
    }
    calc.wait();
    const auto r = calc.getResults();
    std::cout << "hands " << r.hands << " time " << r.time << " equity";
    for (unsigned i = 0; i < ranges.size(); ++i) std::cout << ' ' << r.equity[i];
    std::cout << " stdev " << r.stdev << '\n';
}
