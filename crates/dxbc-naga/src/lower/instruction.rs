//! One DXBC instruction to naga: the dispatch by opcode to declarations,
//! flow (`if`, `loop`, `switch`, jumps and returns), resources, the stage
//! instructions and the ALU, and the conditions flow instructions test.

use super::*;

impl<'a> Lower<'a> {
    fn cond(&mut self, ins: &Instruction) -> Result<H, TranslateError> {
        let op = self.op(ins, 0)?;
        let nz = TestBoolean::from_u32(TEST_CONTROLS[0].get(ins.token)) == Some(TestBoolean::Nonzero);
        // A comparison's result is tested as the bool it is.
        if let Some(b) = self.temp_condition(op, 1) {
            return Ok(if nz { b } else { self.e(E::Unary { op: UnaryOperator::LogicalNot, expr: b }) });
        }
        let c = self.read_masked(op, K::U, 1)?;
        let z = self.lit_u(0);
        Ok(self.bin(if nz { B::NotEqual } else { B::Equal }, c, z))
    }

    /// Writes a comparison's result `b`: a temp keeps the bool (readers
    /// that want D3D's mask build it), other registers take the mask.
    pub(super) fn write_bool(&mut self, dst: &Operand, b: H) -> Result<(), TranslateError> {
        let at = dst.offset as usize;
        if dst.operand_type() == Some(OT::Temp) && Self::is_static(dst, 0) && !self.static_out_of_bounds(dst) {
            let mask = self.dst_mask_of(dst);
            return self.write_temp_bool(dst.index[0].imm as u32, mask, b, self.lanes, at);
        }
        let r = self.mask_from_bool(b);
        self.write(dst, r, K::U, false)
    }

    pub(super) fn instruction(&mut self, ins: &Instruction) -> Result<(), TranslateError> {
        let at = ins.offset as usize;
        if ins.is_customdata() {
            return match CustomdataClass::from_u32(ins.customdata_class()) {
                Some(CustomdataClass::DclImmediateConstantBuffer) => self.icb(ins),
                _ => Ok(()),
            };
        }
        let Some(code) = ins.op() else {
            return malformed(format!("unknown opcode {}", ins.opcode()), at);
        };
        if code.info().class == dxbc::spec::OpClass::Decl {
            return self.declare(ins, code);
        }
        // Flow (branches, returns, emits, calls) may leave the block or
        // hand the outputs on: what was written so far is stored first.
        if code.info().class == dxbc::spec::OpClass::Flow {
            self.flush_outputs();
        }
        match code {
            O::If => {
                let c = self.cond(ins)?;
                self.flush();
                self.open_scope(false, false, None);
                self.frames.push(Frame::If { cond: c, accept: Block::new(), reject: None, span: self.span });
            }
            O::Else => {
                if !matches!(self.frames.last(), Some(Frame::If { reject: None, .. })) {
                    return malformed("else without if", at);
                }
                self.end_block();
                if let Some(Frame::If { reject: r @ None, .. }) = self.frames.last_mut() {
                    *r = Some(Block::new());
                }
                self.restart_block();
            }
            O::Endif => {
                if !matches!(self.frames.last(), Some(Frame::If { .. })) {
                    return malformed("endif without if", at);
                }
                self.end_block();
                match self.frames.pop() {
                    Some(Frame::If { cond, accept, reject, span }) => {
                        self.close_scope();
                        self.block().push(S::If { condition: cond, accept, reject: reject.unwrap_or_default() }, span)
                    }
                    _ => return malformed("endif without if", at),
                }
            }
            O::Loop => {
                self.flush();
                let writes = self.prepass.loop_writes.get(&ins.offset).cloned();
                self.open_scope(true, true, Some(writes.unwrap_or_default()));
                self.frames.push(Frame::Loop { body: Block::new(), span: self.span });
            }
            O::Endloop => {
                if !matches!(self.frames.last(), Some(Frame::Loop { .. })) {
                    return malformed("endloop without loop", at);
                }
                self.end_block();
                match self.frames.pop() {
                    Some(Frame::Loop { body, span }) => {
                        self.close_scope();
                        self.block().push(S::Loop { body, continuing: Block::new(), break_if: None }, span)
                    }
                    _ => return malformed("endloop without loop", at),
                }
            }
            O::Break => {
                // D3D lets `break` end the program when no loop or switch is open.
                if self.frames.iter().any(|f| matches!(f, Frame::Loop { .. } | Frame::Switch { .. })) {
                    self.before_jump(false);
                    self.stmt(S::Break)
                } else {
                    self.stmt(S::Return { value: None })
                }
            }
            O::Continue | O::Continuec if !self.frames.iter().any(|f| matches!(f, Frame::Loop { .. })) => {
                return malformed("continue outside a loop", at);
            }
            O::Continue => {
                self.before_jump(true);
                self.stmt(S::Continue)
            }
            O::Breakc | O::Continuec | O::Retc | O::Discard => {
                let c = self.cond(ins)?;
                let in_breakable = self.frames.iter().any(|f| matches!(f, Frame::Loop { .. } | Frame::Switch { .. }));
                if code == O::Discard && self.stage != ShaderStage::Fragment {
                    return unsupported(L::DiscardOutsidePixelShader, "discard outside a pixel shader", at);
                }
                let inner = match code {
                    // As for `break`: with no loop or switch open it ends the program.
                    O::Breakc if !in_breakable => S::Return { value: None },
                    O::Breakc => S::Break,
                    O::Continuec => S::Continue,
                    O::Retc => S::Return { value: None },
                    _ => S::Kill,
                };
                if matches!(inner, S::Break | S::Continue) {
                    self.before_jump(code == O::Continuec);
                }
                let mut accept = Block::new();
                accept.push(inner, self.span);
                self.stmt(S::If { condition: c, accept, reject: Block::new() });
            }
            O::Ret => self.stmt(S::Return { value: None }),
            O::Switch => {
                let op = self.op(ins, 0)?;
                let s = self.read_masked(op, K::U, 1)?;
                self.flush();
                self.open_scope(false, true, None);
                self.frames.push(Frame::Switch {
                    selector: s,
                    cases: Vec::new(),
                    labels: Vec::new(),
                    body: None,
                    span: self.span,
                });
            }
            O::Case | O::Default => {
                let label = if code == O::Case {
                    let op = self.op(ins, 0)?;
                    match op.imm(self.p).first() {
                        Some(&v) => SwitchValue::U32(v),
                        None => return malformed("case with a non-literal value", at),
                    }
                } else {
                    SwitchValue::Default
                };
                self.flush();
                if !matches!(self.frames.last(), Some(Frame::Switch { .. })) {
                    return malformed("case outside a switch", at);
                }
                // A label ends the block before it: the previous case's, or
                // (at the first label) instructions between `switch` and its
                // first label, which no path reaches. Their statements are
                // dropped below, and the next block starts from the state
                // the switch opened with, so no register keeps a value
                // only they computed.
                self.end_block();
                self.restart_block();
                let Some(Frame::Switch { cases, labels, body, .. }) = self.frames.last_mut() else {
                    return malformed("case outside a switch", at);
                };
                if cases.iter().any(|c| c.value == label) || labels.contains(&label) {
                    return malformed(format!("switch has two {label:?} labels"), at);
                }
                // A label after statements closes the previous case.
                if let Some(b) = body.take() {
                    if !labels.is_empty() {
                        close_case(cases, labels, b);
                    }
                }
                labels.push(label);
            }
            O::Endswitch => {
                if !matches!(self.frames.last(), Some(Frame::Switch { .. })) {
                    return malformed("endswitch without switch", at);
                }
                self.end_block();
                match self.frames.pop() {
                    Some(Frame::Switch { selector, mut cases, mut labels, body, span }) => {
                        self.close_scope();
                        if !labels.is_empty() {
                            close_case(&mut cases, &mut labels, body.unwrap_or_default());
                        }
                        if !cases.iter().any(|c| c.value == SwitchValue::Default) {
                            cases.push(SwitchCase {
                                value: SwitchValue::Default,
                                body: Block::new(),
                                fall_through: false,
                            });
                        }
                        self.block().push(S::Switch { selector, cases }, span);
                    }
                    _ => return malformed("endswitch without switch", at),
                }
            }
            O::Nop => {}
            O::InterfaceCall if self.linkage.is_some() => self.fcall(ins)?,
            O::Emit | O::Cut | O::Emitthencut | O::EmitStream | O::CutStream | O::EmitthencutStream
                if self.io.as_ref().is_some_and(|io| io.gs.is_some()) =>
            {
                self.gs_instruction(ins, code)?
            }
            _ => self.alu(ins, code)?,
        }
        Ok(())
    }
}
