//! Text pictures of fields, shared by `-m` and `ysai arena replay` so that both read alike:
//! rows 18 down to 0, a digit per number, `X` for ojama, `.` for an empty cell and `!` for an
//! empty cell above the 16 visible rows (a block there at the end of a turn loses), then a
//! line of column heights (10 and more as `A`, `B`, ...).

use crate::bitboard::{HEIGHT, WIDTH};
use crate::sim::field::{OJAMA_VALUE, VISIBLE_HEIGHT};
use crate::sim::Field;

/// The character of one cell value (0 empty, 1..=9, 11 ojama).
pub fn cell_char(value: u8) -> char {
    match value {
        0 => '.',
        OJAMA_VALUE => 'X',
        v @ 1..=9 => char::from(b'0' + v),
        _ => '?',
    }
}

/// A column height as one character: `0`..`9`, then `A` for 10, `B` for 11, ...
pub fn height_char(height: usize) -> char {
    match height {
        0..=9 => char::from(b'0' + height as u8),
        _ => char::from(b'A' + (height - 10).min(25) as u8),
    }
}

/// The picture of a grid given by `cell(x, y)` (row 0 at the bottom): 19 rows, then the
/// heights.
pub fn grid_picture(cell: impl Fn(usize, usize) -> u8) -> Vec<String> {
    let mut lines: Vec<String> = (0..HEIGHT)
        .rev()
        .map(|y| {
            (0..WIDTH)
                .map(|x| match cell(x, y) {
                    0 if y >= VISIBLE_HEIGHT => '!',
                    value => cell_char(value),
                })
                .collect()
        })
        .collect();
    lines.push(
        (0..WIDTH)
            .map(|x| height_char((0..HEIGHT).filter(|&y| cell(x, y) != 0).count()))
            .collect(),
    );
    lines
}

/// The picture of a field.
pub fn field_picture(field: &Field) -> Vec<String> {
    grid_picture(|x, y| field.cell(x, y))
}

/// The picture of recorded rows (top first, as replays and the protocol hold them).
pub fn rows_picture(rows: &[[u8; WIDTH]]) -> Vec<String> {
    let height = rows.len();
    grid_picture(|x, y| {
        if y < height {
            rows[height - 1 - y][x]
        } else {
            0
        }
    })
}

/// Panels of text next to each other, each padded to its widest line, three spaces apart.
pub fn side_by_side(panels: &[Vec<String>]) -> String {
    let widths: Vec<usize> = panels
        .iter()
        .map(|p| p.iter().map(|l| l.chars().count()).max().unwrap_or(0))
        .collect();
    let rows = panels.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = String::new();
    for row in 0..rows {
        let mut line = String::new();
        for (panel, &width) in panels.iter().zip(&widths) {
            let text = panel.get(row).map_or("", String::as_str);
            line.push_str(&format!("{text:<width$}   "));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_shows_numbers_ojama_heights_and_the_rows_above_the_top() {
        let mut rows = [[0u8; WIDTH]; VISIBLE_HEIGHT];
        rows[VISIBLE_HEIGHT - 1] = [1, 11, 0, 0, 0, 0, 0, 0, 0, 9];
        rows[VISIBLE_HEIGHT - 2][9] = 5;
        let field = Field::from_rows(&rows).unwrap();
        let picture = field_picture(&field);
        assert_eq!(picture.len(), HEIGHT + 1);
        assert_eq!(picture[0], "!!!!!!!!!!");
        assert_eq!(picture[HEIGHT - VISIBLE_HEIGHT], "..........");
        assert_eq!(picture[HEIGHT - 2], ".........5");
        assert_eq!(picture[HEIGHT - 1], "1X.......9");
        assert_eq!(picture[HEIGHT], "1100000002");
        assert_eq!(picture, rows_picture(&rows));
    }

    #[test]
    fn tall_columns_count_in_letters() {
        assert_eq!(height_char(9), '9');
        assert_eq!(height_char(10), 'A');
        assert_eq!(height_char(16), 'G');
        assert_eq!(height_char(19), 'J');
    }

    #[test]
    fn panels_line_up_whatever_their_widths() {
        let left = vec!["ab".to_string(), "abcd".to_string()];
        let right = vec!["x".to_string(), "y".to_string(), "z".to_string()];
        assert_eq!(
            side_by_side(&[left, right]),
            "ab     x\nabcd   y\n       z\n"
        );
    }
}
