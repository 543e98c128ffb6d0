// How the lab writes a number in text, one rule per kind of number, so that the CLI, the core's messages and
// the page (web/src/ui/format.js mirrors format_number) spell each the same, infinity always "∞".
#pragma once
#include <string>

namespace sqrtdk {

// A measured value: 3 significant digits, C's %.3g ("0.248", "1.93", "2.03e-05", "1.23e+05"); "–" for none
// (NaN), "∞" / "-∞" for infinity.
std::string format_number(double x);

// A value as given or a setting's bound, in a message or usage text: C's %g, what an ostream prints ("0.1",
// "1e-09"); "nan", "∞" / "-∞".
std::string format_given(double x);

// Steps as whole numbers or halves ("61", "119.5", a median of two step counts).
std::string format_steps(double steps);

// A whole number exactly ("9007199254740991", not %g's "9.0072e+15"); anything else as format_given.
std::string format_whole(double x);

}  // namespace sqrtdk
