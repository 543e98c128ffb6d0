// The median, one definition for the answer and the claims: the middle value, or the mean of the middle two for an
// even count; NaN for none.  NaN values are ordered after every number (+∞ included), so the order and the result
// are the same in every standard library (sorting with < over a NaN is undefined behaviour); the median is NaN when
// a middle value is.
#pragma once
#include <vector>

namespace sqrtdk {

double median(std::vector<double> values);

}  // namespace sqrtdk
