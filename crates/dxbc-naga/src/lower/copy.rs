//! The typeless copies, `mov` and `movc`: lanes whose values already have
//! different kinds are copied as separate values, each in its own kind, so
//! no lane is bitcast only to share a vector with the others.

use super::*;

impl<'a> Lower<'a> {
    /// The destination lanes of a bit copy grouped by the kind their values
    /// already have (`lane_kind`: a lane takes its first source's kind that
    /// is known), in lane order. Lanes no value decides join the first
    /// group; one group (the whole mask) when no two kinds meet, or when a
    /// later group would read a lane an earlier one wrote (any of `reads`,
    /// the instruction's sources, naming the destination's register with a
    /// lane that selects another written lane), or when a lane is an
    /// immediate's NaN or infinity.
    pub(super) fn kind_groups(&self, srcs: &[&Operand], reads: &[&Operand], d: &Operand) -> Lanes<(u32, Option<K>)> {
        let mask = self.lane_mask & 0xf;
        let same_reg = |s: &&&Operand| {
            s.operand_type() == Some(OT::Temp)
                && d.operand_type() == Some(OT::Temp)
                && Self::is_static(s, 0)
                && Self::is_static(d, 0)
                && s.index[0].imm == d.index[0].imm
        };
        let crosses = reads.iter().filter(same_reg).any(|s| {
            let sel = crate::regs::selection(s);
            (0..4).any(|l| mask & (1 << l) != 0 && sel[l] as usize & 3 != l && mask & (1 << (sel[l] & 3)) != 0)
        });
        // NaN or infinity bits stay in the kind the whole copy reads them in:
        // a float literal of them goes through a variable (WGSL's constant
        // evaluation refuses them), a bitcast of a uint constant would not.
        let lanes = || (0..4).filter(|l| mask & (1 << l) != 0);
        let non_finite =
            srcs.iter().any(|s| lanes().any(|l| self.lane_immediate(s, l).is_some_and(|b| (b >> 23) & 0xff == 0xff)));
        if d.operand_type() == Some(OT::Null) || mask == 0 || crosses || non_finite {
            return [(self.lane_mask, None)].into_iter().collect();
        }
        let mut groups: Lanes<(u32, Option<K>)> = Lanes::new();
        let mut free = 0;
        for lane in lanes() {
            match srcs.iter().find_map(|s| self.lane_kind(s, lane)) {
                Some(k) => match groups.iter_mut().find(|g| g.1 == Some(k)) {
                    Some(g) => g.0 |= 1 << lane,
                    None => groups.push((1 << lane, Some(k))),
                },
                None => free |= 1 << lane,
            }
        }
        match groups.as_mut_slice() {
            [] => [(self.lane_mask, None)].into_iter().collect(),
            [(_, k)] => [(self.lane_mask, *k)].into_iter().collect(),
            [first, ..] => {
                first.0 |= free;
                groups
            }
        }
    }

    /// Runs `lower` once per lane group of destination `d`, each time with
    /// the lane mask (and the destination's written lanes) narrowed to the
    /// group: lanes of different kinds are built as separate values, so no
    /// lane is bitcast only to share a vector with the others.
    pub(super) fn per_kind_group(
        &mut self,
        d: &Operand,
        groups: Lanes<(u32, Option<K>)>,
        mut lower: impl FnMut(&mut Self, Option<K>) -> Result<(), TranslateError>,
    ) -> Result<(), TranslateError> {
        if let [(_, k)] = groups.as_slice() {
            return lower(self, *k);
        }
        let saved = (self.lane_mask, self.lanes, self.narrowed_dst);
        let mut r = Ok(());
        for (group, k) in groups {
            self.lane_mask = group;
            self.lanes = group.count_ones() as usize;
            self.narrowed_dst = Some((d.offset, group));
            r = lower(self, k);
            if r.is_err() {
                break;
            }
        }
        (self.lane_mask, self.lanes, self.narrowed_dst) = saved;
        r
    }

    /// A bit copy that a source modifier or `_sat` makes a float operation.
    pub(super) fn copy_is_typed(&self, ins: &Instruction, code: O, sat: bool) -> bool {
        let first = if code == O::Movc { 2 } else { 1 };
        sat || ins
            .ops
            .as_slice()
            .iter()
            .skip(first)
            .any(|&id| self.p.operands.get(id as usize).is_some_and(|s| s.modifier(self.p) != 0))
    }

    /// Lowers `mov` or `movc` for the lanes `self.lane_mask` names, in kind
    /// `k` (`None`: the kind the (first) source has).
    pub(super) fn copy_lanes(
        &mut self,
        ins: &Instruction,
        code: O,
        k: Option<K>,
        sat: bool,
    ) -> Result<(), TranslateError> {
        let d = self.op(ins, 0)?;
        let typed = self.copy_is_typed(ins, code, sat);
        if code == O::Mov {
            let s = self.op(ins, 1)?;
            if !typed && d.operand_type() == Some(OT::Temp) && Self::is_static(d, 0) {
                if let Some(bits) = self.immediate_lanes(s) {
                    let mask = self.dst_mask_of(d);
                    return self.write_temp_imm(d.index[0].imm as u32, mask, bits, d.offset as usize);
                }
            }
            let (a, k) = if typed {
                (self.read_masked(s, K::F, self.lane_mask)?, K::F)
            } else {
                self.read_lanes(s, k, self.lane_mask)?
            };
            return self.write(d, a, k, sat);
        }
        let cond = self.op(ins, 1)?;
        let cb = match self.temp_condition(cond, self.lane_mask) {
            Some(b) => b,
            None => {
                let c = self.read_masked(cond, K::U, self.lane_mask)?;
                let z = self.splat_u(0);
                self.bin(B::NotEqual, c, z)
            }
        };
        let (s1, s2) = (self.op(ins, 2)?, self.op(ins, 3)?);
        let (a, k) = if typed {
            (self.read_masked(s1, K::F, self.lane_mask)?, K::F)
        } else {
            self.read_lanes(s1, k, self.lane_mask)?
        };
        let b = self.read_masked(s2, k, self.lane_mask)?;
        let r = self.select(cb, a, b);
        self.write(d, r, k, sat)
    }

    /// `mov` and `movc`: bits copied in the kind the value has (per group of
    /// lanes of one kind), unless a float modifier or `_sat` asks for a float.
    pub(super) fn copy(&mut self, ins: &Instruction, code: O, sat: bool) -> Result<(), TranslateError> {
        // Both copy bits, in the kind the value has, unless a float
        // modifier or _sat asks for a float.
        if self.copy_is_typed(ins, code, sat) {
            return self.copy_lanes(ins, code, Some(K::F), sat);
        }
        let d = self.op(ins, 0)?;
        // movc reads a condition and two sources, mov one source.
        let movc = usize::from(code == O::Movc);
        let ops = [self.op(ins, 1)?, self.op(ins, 1 + movc)?, self.op(ins, 1 + 2 * movc)?];
        let reads = &ops[..1 + 2 * movc];
        let groups = self.kind_groups(&reads[movc..], reads, d);
        self.per_kind_group(d, groups, |l, k| l.copy_lanes(ins, code, k, false))?;
        Ok(())
    }
}
