// The Ghia et al. (1982) tables built into `barracuda validate`
// (src/validation/ghia1982.hpp) must equal the project's reference file
// ../shared/reference/ghia1982_cavity2d.csv, which the cavity tests read.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "validation/ghia1982.hpp"

namespace barracuda {
namespace {

TEST(ValidateReference, GhiaTableMatchesTheReferenceFile) {
    std::ifstream in(std::string(BARRACUDA_REFERENCE_DIR) + "/ghia1982_cavity2d.csv");
    ASSERT_TRUE(in) << "reference file missing: " << BARRACUDA_REFERENCE_DIR << "/ghia1982_cavity2d.csv";
    std::vector<std::vector<double>> rows;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#' || line[0] == 'y') continue;
        std::stringstream s(line);
        std::vector<double> row;
        std::string field;
        while (std::getline(s, field, ',')) row.push_back(std::stod(field));
        ASSERT_EQ(row.size(), 8u) << line;
        rows.push_back(row);
    }
    ASSERT_EQ(rows.size(), std::size(validation::ghia1982));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& g = validation::ghia1982[i];
        const double built_in[8] = {g.y, g.u[0], g.u[1], g.u[2], g.x, g.v[0], g.v[1], g.v[2]};
        for (int k = 0; k < 8; ++k) EXPECT_EQ(built_in[k], rows[i][k]) << "row " << i << ", column " << k;
    }
    EXPECT_EQ(validation::ghia_column(100), 0);
    EXPECT_EQ(validation::ghia_column(1000), 2);
    EXPECT_EQ(validation::ghia_column(200), -1);
}

}  // namespace
}  // namespace barracuda
