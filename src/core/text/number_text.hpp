// How the lab writes a number in text, one rule per kind of number, so that the CLI, the core's messages and
// the page (web/src/ui/format.js mirrors format_number) spell each the same, infinity always "∞".
#pragma once
#include <string>

namespace sqrtdk {

// A measured value: 3 significant digits rounded as C's %.3g, plain from 0.0001 to 999 ("0.248", "1.93"),
// beyond that in powers of ten a reader knows from school ("2.03×10⁻⁵", "1.23×10⁵", "10⁻⁶"), never "e-05";
// "–" for none (NaN), "∞" / "-∞" for infinity.
std::string format_number(double x);

// A measured value shown beside another of its kind (a column, "raw vs scaled"): format_number's 3 significant
// digits with their trailing zeros kept ("0.200" beside "0.0739", "1.00×10⁻⁵"), so that a value that happens to
// round to one digit does not read as a given, round number.
std::string format_significant(double x);

// 10 to a whole power, the exponent in superscript digits: "10⁻⁵", "10⁰", "10¹²".
std::string power_of_ten(int exponent);

// A value as given or a setting's bound, in a message or usage text: C's %g, what an ostream prints ("0.1",
// "1e-09"); "nan", "∞" / "-∞".
std::string format_given(double x);

// Steps as whole numbers or halves ("61", "119.5", a median of two step counts).
std::string format_steps(double steps);

// A whole number exactly ("9007199254740991", not %g's "9.0072e+15"); anything else as format_given.
std::string format_whole(double x);

}  // namespace sqrtdk
