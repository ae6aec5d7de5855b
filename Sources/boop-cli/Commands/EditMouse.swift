import Glibc
import PixelBoopCore

/// The mouse on the grid: a left click places or removes, a left drag paints (one undo step); a
/// right click removes; a drag with the right or middle button held marks a block from the cell
/// pressed to the cell under the pointer, as `v` and the cursor do (y, x, t, ... then act on it);
/// the wheel scrolls.
extension EditSession {
    func mouse(
        _ button: InputEvent.MouseButton, column: Int, row: Int, pressed: Bool, drag: Bool,
        readAt: Double
    ) {
        switch button {
        case .wheelUp: view.scroll(model, by: 3, height: size.height)
        case .wheelDown: view.scroll(model, by: -3, height: size.height)
        case .left:
            if !pressed {
                if dragging { model.endGroup() }
                dragging = false
                return
            }
            guard let cell = view.cell(column: column, row: row, model: model, width: size.width, height: size.height)
            else { return }
            model.moveTo(step: cell.step, row: cell.row)
            if drag {
                // A drag paints: one undo step for the whole stroke.
                if !dragging {
                    dragging = true
                    model.beginGroup()
                }
                if let placed = model.place() { audition(placed) }
            } else {
                dragging = true
                model.beginGroup()
                if let placed = model.toggle() { audition(placed) }
            }
        case .right, .middle:
            blockMouse(
                button, cell: view.cell(column: column, row: row, model: model, width: size.width, height: size.height),
                pressed: pressed, drag: drag)
        }
    }

    /// The right or middle button: pressed, it remembers the cell; moved while held, a block from
    /// that cell follows the pointer; released, it ends the block, or (a right click that never
    /// moved) removes the note on the cell pressed. Marking a block is no edit (nothing to undo).
    private func blockMouse(_ button: InputEvent.MouseButton, cell: (step: Int, row: Int)?, pressed: Bool, drag: Bool) {
        if pressed && !drag {
            blockPress = cell
            blockDragging = false
            return
        }
        guard let start = blockPress else { return }
        if pressed {
            guard let cell else { return }
            if !blockDragging {
                blockDragging = true
                model.clearBlock()
                model.moveTo(step: start.step, row: start.row)
                model.toggleBlock()
            }
            model.moveTo(step: cell.step, row: cell.row)
            return
        }
        if blockDragging {
            model.toggleBlock()
        } else if button == .right {
            model.moveTo(step: start.step, row: start.row)
            model.remove()
        }
        blockPress = nil
        blockDragging = false
    }
}
